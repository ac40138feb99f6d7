import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, fromPromise, SimulatedClock } from 'xstate';
import type { HandshakeInput, ProcessActorInput } from '../../src/machines/server.machine.js';
import { serverMachine, serverStateOf } from '../../src/machines/server.machine.js';
import { type SupervisedServer, supervisorMachine } from '../../src/machines/supervisor.machine.js';

/** Fake processes: each spawn is recorded; the test ends them with `exit(id, code)`. */
function harness(
  servers: SupervisedServer[],
  strategy: 'one_for_one' | 'one_for_all' | 'rest_for_one' = 'one_for_one',
) {
  const clock = new SimulatedClock();
  const spawns: Array<{ id: string; generation: number; at: number }> = [];
  const live = new Map<string, (code: number | null, reason?: string) => void>();
  const process = fromCallback<{ type: 'STOP'; reason: string; immediate: boolean }, ProcessActorInput>(
    ({ input, sendBack, receive }) => {
      const { id } = input.server;
      let done = false;
      const exit = (code: number | null, reason = 'exited') => {
        if (done) return;
        done = true;
        live.delete(id);
        sendBack({
          type: 'PROC.EXIT',
          generation: input.generation,
          exit: { code, signal: null, reason, stderrTail: '' },
        });
      };
      spawns.push({ id, generation: input.generation, at: clock.now() });
      live.set(id, exit);
      sendBack({
        type: 'PROC.SPAWNED',
        generation: input.generation,
        pid: 1000 + spawns.length,
        handle: null,
      });
      receive((e) => {
        if (e.type === 'STOP') queueMicrotask(() => exit(0, e.reason));
      });
      return () => {};
    },
  );
  const handshake = fromPromise<{ tools: unknown[] }, HandshakeInput>(async () => ({ tools: [] }));
  const machine = supervisorMachine.provide({
    actors: { server: serverMachine.provide({ actors: { process, handshake } }) },
  });
  const actor = createActor(machine, {
    clock,
    input: {
      strategy,
      limit: { maxRestarts: 100, windowMs: 60_000 },
      servers,
      now: () => clock.now(),
      random: () => 0,
    },
  });
  actor.start();
  const state = (id: string) => serverStateOf(actor.getSnapshot().context.refs[id]!.getSnapshot());
  const flush = () => new Promise((r) => setTimeout(r, 0));
  return { clock, spawns, live, actor, state, flush };
}

function server(id: string, over: Partial<SupervisedServer['restart']> = {}): SupervisedServer {
  return {
    id,
    disabled: false,
    timeouts: { startupMs: 1000, callMs: 1000, shutdownMs: 100 },
    health: { intervalMs: 0, timeoutMs: 100, failureThreshold: 3 },
    restart: {
      policy: 'on-failure',
      backoff: { initialMs: 100, multiplier: 2, maxMs: 1000, jitter: 0, resetAfterMs: 10_000 },
      limit: { maxRestarts: 3, windowMs: 60_000 },
      ...over,
    },
  };
}

describe('supervisor machine with fake processes', () => {
  it('starts every server in file order and reaches ready', async () => {
    const h = harness([server('a'), server('b'), server('c')]);
    h.actor.send({ type: 'START_ALL' });
    await h.flush();
    expect(h.spawns.map((s) => s.id)).toEqual(['a', 'b', 'c']);
    expect(['a', 'b', 'c'].map(h.state)).toEqual(['ready', 'ready', 'ready']);
  });

  it('a crash loop fails after exactly maxRestarts restarts with the configured delays', async () => {
    const h = harness([server('a')]);
    h.actor.send({ type: 'START_ALL' });
    await h.flush();
    const delays: number[] = [];
    for (let i = 0; i < 4; i++) {
      h.live.get('a')!(1);
      await h.flush();
      if (h.state('a') === 'failed') break;
      expect(h.state('a')).toBe('backoff');
      const before = h.clock.now();
      const spawned = h.spawns.length;
      // Advance ms by ms until the restart happens: the delay is measured, not assumed.
      while (h.spawns.length === spawned) {
        h.clock.increment(1);
        await h.flush();
      }
      delays.push(h.clock.now() - before);
    }
    expect(delays).toEqual([100, 200, 400]);
    expect(h.state('a')).toBe('failed');
    expect(h.spawns).toHaveLength(4);
  });

  it('on-failure ignores exit 0 after ready; never never restarts', async () => {
    const h = harness([server('a'), server('b', { policy: 'never' })]);
    h.actor.send({ type: 'START_ALL' });
    await h.flush();
    h.live.get('a')!(0);
    h.live.get('b')!(1);
    await h.flush();
    h.clock.increment(10_000);
    await h.flush();
    expect(h.state('a')).toBe('stopped');
    expect(h.state('b')).toBe('stopped');
    expect(h.spawns).toHaveLength(2);
  });

  it('stop during backoff cancels the restart', async () => {
    const h = harness([server('a')]);
    h.actor.send({ type: 'START_ALL' });
    await h.flush();
    h.live.get('a')!(1);
    await h.flush();
    expect(h.state('a')).toBe('backoff');
    h.actor.send({ type: 'STOP', id: 'a' });
    h.clock.increment(5000);
    await h.flush();
    expect(h.state('a')).toBe('stopped');
    expect(h.spawns).toHaveLength(1);
  });

  it('one_for_all restarts every sibling, in file order, after the delay', async () => {
    const h = harness([server('a'), server('b'), server('c')], 'one_for_all');
    h.actor.send({ type: 'START_ALL' });
    await h.flush();
    h.live.get('b')!(1);
    await h.flush();
    expect(['a', 'b', 'c'].map(h.state)).toEqual(['backoff', 'backoff', 'backoff']);
    h.clock.increment(100);
    await h.flush();
    expect(h.spawns.slice(3).map((s) => s.id)).toEqual(['a', 'b', 'c']);
    expect(['a', 'b', 'c'].map(h.state)).toEqual(['ready', 'ready', 'ready']);
  });

  it('rest_for_one restarts the failed one and those after it only', async () => {
    const h = harness([server('a'), server('b'), server('c')], 'rest_for_one');
    h.actor.send({ type: 'START_ALL' });
    await h.flush();
    h.live.get('b')!(1);
    await h.flush();
    expect(['a', 'b', 'c'].map(h.state)).toEqual(['ready', 'backoff', 'backoff']);
    h.clock.increment(100);
    await h.flush();
    expect(h.spawns.slice(3).map((s) => s.id)).toEqual(['b', 'c']);
  });
});
