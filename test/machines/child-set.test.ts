import { afterEach, describe, expect, it } from 'vitest';
import { type AnyActorRef, createActor, fromCallback, fromPromise, SimulatedClock, transition } from 'xstate';
import { childIds, childOf } from '../../src/machines/books.js';
import { addChild, removeChild } from '../../src/machines/child-set.js';
import type { HandshakeInput, ProcessActorInput } from '../../src/machines/server.machine.js';
import { serverMachine, serverStateOf } from '../../src/machines/server.machine.js';
import {
  type SupervisedServer,
  serverRefOf,
  supervisorMachine,
} from '../../src/machines/supervisor.machine.js';
import { plainDataProblems } from './plain-data.js';

const server = (id: string, disabled = false): SupervisedServer => ({
  id,
  disabled,
  timeouts: { startupMs: 1000, callMs: 1000, shutdownMs: 100 },
  health: { intervalMs: 0, timeoutMs: 100, failureThreshold: 3 },
  restart: {
    policy: 'on-failure',
    backoff: { initialMs: 100, multiplier: 2, maxMs: 1000, jitter: 0, resetAfterMs: 60_000 },
    limit: { maxRestarts: 5, windowMs: 60_000 },
  },
});

const actors: AnyActorRef[] = [];
afterEach(() => {
  for (const a of actors.splice(0)) a.stop();
});

/** A fleet of fake processes on a simulated clock: spawns are recorded, `crash(id)` ends one with code 1. */
function fleet(ids: string[]) {
  const clock = new SimulatedClock();
  const spawns: string[] = [];
  const crash = new Map<string, () => void>();
  const process = fromCallback<{ type: 'STOP'; reason: string; immediate: boolean }, ProcessActorInput>(
    ({ input, sendBack, receive }) => {
      const { generation } = input;
      const exit = (code: number, reason: string) =>
        sendBack({
          type: 'PROC.EXIT',
          generation,
          exit: { code, signal: null, reason, stderrTail: '' },
          at: clock.now(),
          draw: 0,
        });
      spawns.push(input.server.id);
      sendBack({ type: 'PROC.SPAWNED', generation, pid: 7000 + spawns.length });
      crash.set(input.server.id, () => exit(1, 'exited'));
      receive((e) => queueMicrotask(() => exit(0, e.reason)));
      return () => {};
    },
  );
  const logic = supervisorMachine.provide({
    actors: {
      server: serverMachine.provide({
        actors: {
          process,
          handshake: fromPromise<{ tools: unknown[] }, HandshakeInput>(async () => ({ tools: [] })),
        },
      }),
    },
  });
  const input = {
    strategy: 'one_for_one' as const,
    limit: { maxRestarts: 10, windowMs: 60_000 },
    servers: ids.map((id) => server(id)),
  };
  const actor = createActor(logic, { clock, input });
  actors.push(actor);
  actor.start();
  const flush = () => new Promise((r) => setTimeout(r, 0));
  const state = (id: string) => {
    const ref = serverRefOf(actor.getSnapshot(), id);
    return ref ? serverStateOf(ref.getSnapshot()) : undefined;
  };
  return { clock, spawns, crash, logic, actor, flush, state };
}

describe('child set: the books of a reload', () => {
  const books = () => {
    const a = createActor(supervisorMachine, {
      input: {
        strategy: 'one_for_one',
        limit: { maxRestarts: 1, windowMs: 1 },
        servers: [server('a'), server('b')],
      },
    });
    return a.getSnapshot().context.books;
  };

  it('a new child joins where the new order puts it; a taken id changes nothing', () => {
    const next = addChild(books(), server('n'), ['a', 'n', 'b']);
    expect(next && childIds(next)).toEqual(['a', 'n', 'b']);
    expect((next && childOf(next, 'n'))?.phase).toBe('stopped');
    expect(addChild(books(), server('a'), ['a', 'b'])).toBeUndefined();
    // An order that leaves a known child out keeps it, after the ones it names.
    expect(childIds(addChild(books(), server('n'), ['n', 'a'])!)).toEqual(['n', 'a', 'b']);
  });

  it('a removed child leaves its book, its place and every group it was in', () => {
    const b = {
      ...books(),
      groups: { a: { members: ['a', 'b'], due: false }, b: { members: ['b'], due: false } },
    };
    const next = removeChild(b, 'b');
    expect(next && childIds(next)).toEqual(['a']);
    expect(next && childOf(next, 'b')).toBeUndefined();
    expect(next?.groups).toEqual({ a: { members: ['a'], due: false } });
    expect(removeChild(b, 'zz')).toBeUndefined();
  });
});

describe('supervisor machine: ADD_CHILD, REMOVE_CHILD and SET_POLICY', () => {
  it('transition(): ADD_CHILD spawns the server machine and books it, in plain data', () => {
    const h = fleet(['a', 'b']);
    const [next, actions] = transition(h.logic, h.actor.getSnapshot(), {
      type: 'ADD_CHILD',
      server: server('c', true),
      order: ['c', 'a', 'b'],
    });
    expect(childIds(next.context.books)).toEqual(['c', 'a', 'b']);
    expect(next.context.disabled).toEqual(['c']);
    expect(actions.some((a) => a.type === 'xstate.spawnChild')).toBe(true);
    expect(plainDataProblems(next.context)).toEqual([]);
  });

  it('transition(): REMOVE_CHILD stops the actor and cancels its timers; SET_POLICY keeps the history', () => {
    const h = fleet(['a', 'b']);
    const [next, actions] = transition(h.logic, h.actor.getSnapshot(), { type: 'REMOVE_CHILD', id: 'a' });
    expect(childIds(next.context.books)).toEqual(['b']);
    expect(childIds(next.context.books)).toEqual(['b']);
    expect(actions.map((a) => a.type)).toEqual(['xstate.cancel', 'xstate.cancel', 'xstate.stopChild']);
    const limit = { maxRestarts: 1, windowMs: 5 };
    const [p] = transition(h.logic, h.actor.getSnapshot(), {
      type: 'SET_POLICY',
      strategy: 'one_for_all',
      limit,
    });
    expect([p.context.books.strategy, p.context.books.limit]).toEqual(['one_for_all', limit]);
    expect(p.context.books.global).toEqual(h.actor.getSnapshot().context.books.global);
  });

  it('an added server starts on START and restarts under its own policy', async () => {
    const h = fleet(['a']);
    h.actor.send({ type: 'START_ALL' });
    await h.flush();
    h.actor.send({ type: 'ADD_CHILD', server: server('n'), order: ['a', 'n'] });
    expect(h.state('n')).toBe('stopped');
    h.actor.send({ type: 'START', id: 'n' });
    await h.flush();
    expect(h.state('n')).toBe('ready');
    h.crash.get('n')!();
    await h.flush();
    expect(h.state('n')).toBe('backoff');
    h.clock.increment(100);
    await h.flush();
    expect(h.state('n')).toBe('ready');
    expect(h.spawns).toEqual(['a', 'n', 'n']);
    expect(childOf(h.actor.getSnapshot().context.books, 'n')?.restarts).toBe(1);
  });

  it('a server removed in backoff is never restarted: its restart timer went with it', async () => {
    const h = fleet(['a', 'b']);
    h.actor.send({ type: 'START_ALL' });
    await h.flush();
    h.crash.get('a')!();
    await h.flush();
    expect(h.state('a')).toBe('backoff');
    h.actor.send({ type: 'REMOVE_CHILD', id: 'a' });
    expect(h.state('a')).toBeUndefined();
    // Past the restart delay: the RESTART_DUE it would have raised is what could spawn it again.
    h.clock.increment(10_000);
    await h.flush();
    expect(h.spawns).toEqual(['a', 'b']);
    // The id is free again: a changed server comes back as a new child under the same id.
    h.actor.send({ type: 'ADD_CHILD', server: server('a'), order: ['a', 'b'] });
    h.actor.send({ type: 'START', id: 'a' });
    await h.flush();
    expect([h.state('a'), h.spawns]).toEqual(['ready', ['a', 'b', 'a']]);
    expect(childIds(h.actor.getSnapshot().context.books)).toEqual(['a', 'b']);
  });
});
