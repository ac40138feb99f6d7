import { afterEach, describe, expect, it } from 'vitest';
import {
  type AnyActorRef,
  createActor,
  fromCallback,
  fromPromise,
  SimulatedClock,
  type Snapshot,
  transition,
} from 'xstate';
import { childOf } from '../../src/machines/books.js';
import type { HandshakeInput, ProcessActorInput } from '../../src/machines/server.machine.js';
import { serverMachine, serverStateOf } from '../../src/machines/server.machine.js';
import {
  type SupervisedServer,
  type SupervisorMachineContext,
  type SupervisorMachineEvent,
  serverRefOf,
  supervisorMachine,
} from '../../src/machines/supervisor.machine.js';
import { plainDataProblems } from './plain-data.js';

const server = (id: string): SupervisedServer => ({
  id,
  disabled: false,
  timeouts: { startupMs: 1000, callMs: 1000, shutdownMs: 100 },
  health: { intervalMs: 0, timeoutMs: 100, failureThreshold: 3 },
  restart: {
    policy: 'on-failure',
    // Jitter on, so the restart delay depends on the draw the exit carries.
    backoff: { initialMs: 100, multiplier: 2, maxMs: 10_000, jitter: 1, resetAfterMs: 60_000 },
    limit: { maxRestarts: 5, windowMs: 60_000 },
  },
});

const machine = (crash: Map<string, (draw: number) => void>, clock: SimulatedClock) =>
  supervisorMachine.provide({
    actors: {
      server: serverMachine.provide({
        actors: {
          // A fake process whose exit the test triggers, stamped as the runtime stamps it.
          process: fromCallback<{ type: 'STOP'; reason: string; immediate: boolean }, ProcessActorInput>(
            ({ input, sendBack }) => {
              const { generation } = input;
              sendBack({ type: 'PROC.SPAWNED', generation, pid: 5000 + generation });
              crash.set(input.server.id, (draw) =>
                sendBack({
                  type: 'PROC.EXIT',
                  generation,
                  exit: { code: 1, signal: null, reason: 'exited', stderrTail: 'boom' },
                  at: clock.now(),
                  draw,
                }),
              );
              return () => {};
            },
          ),
          handshake: fromPromise<{ tools: unknown[] }, HandshakeInput>(async () => ({ tools: ['t'] })),
        },
      }),
    },
  });

const actors: AnyActorRef[] = [];
afterEach(() => {
  for (const a of actors.splice(0)) a.stop();
});

/** A two-server fleet on a simulated clock, with every event the root receives recorded. */
function fleet() {
  const clock = new SimulatedClock();
  const crash = new Map<string, (draw: number) => void>();
  const logic = machine(crash, clock);
  const received: SupervisorMachineEvent[] = [];
  /** The root's context right after each event it took, before any report that event caused. */
  const after = new Map<SupervisorMachineEvent, SupervisorMachineContext>();
  const input = {
    strategy: 'one_for_one' as const,
    limit: { maxRestarts: 10, windowMs: 60_000 },
    servers: [server('a'), server('b')],
  };
  const actor = createActor(logic, {
    clock,
    input,
    inspect: (e) => {
      if (e.actorRef.sessionId !== e.rootId) return;
      if (e.type === '@xstate.event') received.push(e.event as SupervisorMachineEvent);
      if (e.type === '@xstate.snapshot') {
        after.set(
          e.event as SupervisorMachineEvent,
          (e.snapshot as unknown as { context: SupervisorMachineContext }).context,
        );
      }
    },
  });
  actors.push(actor);
  actor.start();
  const flush = () => new Promise((r) => setTimeout(r, 0));
  const state = (id: string) => serverStateOf(serverRefOf(actor.getSnapshot(), id)!.getSnapshot());
  /** An actor restored from persisted JSON, never started: its snapshot is what `transition()` steps from. */
  const restore = (json: string) =>
    createActor(logic, {
      snapshot: JSON.parse(json) as Snapshot<unknown>,
      input,
      clock: new SimulatedClock(),
    });
  return { clock, crash, logic, actor, received, after, flush, state, restore };
}

/** The delay of the restart a step scheduled, from the actions `transition()` returned. */
function scheduledDelay(actions: ReadonlyArray<{ type: string; params?: unknown }>): number | undefined {
  for (const a of actions) {
    const p = a.params as { event?: { type?: string }; delay?: number } | undefined;
    if (a.type === 'xstate.raise' && p?.event?.type === 'RESTART_DUE') return p.delay;
  }
  return undefined;
}

describe('a pure supervisor: persisted as JSON, decisions replayed with transition()', () => {
  it('a snapshot taken before a crash, restored from JSON, replays the crash to the same restart decision', async () => {
    const h = fleet();
    h.actor.send({ type: 'START_ALL' });
    await h.flush();
    expect([h.state('a'), h.state('b')]).toEqual(['ready', 'ready']);
    // One earlier crash, so the books carry history that the replay must start from.
    h.clock.increment(1000);
    h.crash.get('a')!(0);
    await h.flush();
    h.clock.increment(200);
    await h.flush();
    expect(h.state('a')).toBe('ready');

    h.clock.increment(500);
    const persisted = h.actor.getPersistedSnapshot();
    const json = JSON.stringify(persisted);
    expect(plainDataProblems(persisted)).toEqual([]);
    expect(JSON.parse(json)).toEqual(persisted);

    // The live decision: a crash at t = 1700 with a draw of 0.25.
    h.received.length = 0;
    h.crash.get('a')!(0.25);
    await h.flush();
    const exited = h.received.find((e) => e.type === 'CHILD.EXITED');
    expect(exited).toMatchObject({ type: 'CHILD.EXITED', id: 'a', at: 1700, draw: 0.25 });
    const live = h.after.get(exited!)!;
    expect(childOf(live.books, 'a')).toMatchObject({ restarts: 2, history: { times: [1000, 1700], n: 2 } });
    // The second restart: 200 ms × (1 + 0.25 × jitter 1).
    const spawnsBefore = h.received.filter((e) => e.type === 'CHILD.PHASE' && e.phase === 'running').length;
    h.clock.increment(249);
    await h.flush();
    expect(h.state('a')).toBe('backoff');
    h.clock.increment(1);
    await h.flush();
    expect(h.state('a')).toBe('ready');
    expect(h.received.filter((e) => e.type === 'CHILD.PHASE' && e.phase === 'running').length).toBe(
      spawnsBefore + 1,
    );

    // The replay: restore the JSON (nothing is started), then one pure step with the same event.
    const restored = h.restore(json);
    const [next, actions] = transition(h.logic, restored.getSnapshot(), exited!);
    expect(next.context.books).toEqual(live.books);
    expect(next.context.failures).toEqual(live.failures);
    expect(scheduledDelay(actions)).toBe(250);
    expect(actions).toContainEqual(
      expect.objectContaining({
        type: 'xstate.sendTo',
        params: expect.objectContaining({ event: { type: 'RESTART_LATER' } }),
      }),
    );
    // Pure: the same step again gives the same answer, and only the event's draw moves the delay.
    expect(scheduledDelay(transition(h.logic, restored.getSnapshot(), exited!)[1])).toBe(250);
    const other = { ...exited!, draw: 0.5 } as SupervisorMachineEvent;
    expect(scheduledDelay(transition(h.logic, restored.getSnapshot(), other)[1])).toBe(300);
  });

  it('a replayed exit past the limit gives up, from the books alone', async () => {
    const h = fleet();
    h.actor.send({ type: 'START_ALL' });
    await h.flush();
    for (let i = 0; i < 5; i++) {
      h.crash.get('b')!(0);
      await h.flush();
      h.clock.increment(10_000);
      await h.flush();
    }
    expect(h.state('b')).toBe('ready');
    const json = JSON.stringify(h.actor.getPersistedSnapshot());
    const restored = h.restore(json);
    const exit = {
      type: 'CHILD.EXITED' as const,
      id: 'b',
      facts: { code: 1, signal: null, requested: false, beforeReady: false, wedged: false },
      exit: { code: 1, signal: null, reason: 'exited', stderrTail: '' },
      at: h.clock.now(),
      draw: 0,
    };
    const [next, actions] = transition(h.logic, restored.getSnapshot(), exit);
    expect(next.context.failures).toEqual({ b: 'more than 5 restarts within 60000 ms' });
    expect(scheduledDelay(actions)).toBeUndefined();
    expect(actions).toContainEqual(
      expect.objectContaining({
        type: 'xstate.sendTo',
        params: expect.objectContaining({ event: { type: 'GIVE_UP' } }),
      }),
    );
  });
});
