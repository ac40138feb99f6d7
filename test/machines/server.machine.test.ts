import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, fromPromise, SimulatedClock } from 'xstate';
import type {
  HandshakeInput,
  PingerInput,
  ProcessActorInput,
  ServerMachineEvent,
} from '../../src/machines/server.machine.js';
import { serverMachine, serverStateOf } from '../../src/machines/server.machine.js';
import { type SupervisedServer, supervisorMachine } from '../../src/machines/supervisor.machine.js';

/** One server under a supervisor, with a fake process whose `send` reports as the runtime would. */
function harness(opts: { handshakeHangs?: boolean } = {}) {
  const clock = new SimulatedClock();
  const stops: Array<{ reason: string; immediate: boolean; generation: number }> = [];
  let send: ((e: ServerMachineEvent) => void) | undefined;
  let generation = -1;
  const process = fromCallback<{ type: 'STOP'; reason: string; immediate: boolean }, ProcessActorInput>(
    ({ input, sendBack, receive }) => {
      generation = input.generation;
      send = sendBack;
      sendBack({ type: 'PROC.SPAWNED', generation, pid: 4242, handle: null });
      receive((e) => {
        stops.push({ reason: e.reason, immediate: e.immediate, generation: input.generation });
        queueMicrotask(() =>
          sendBack({
            type: 'PROC.EXIT',
            generation: input.generation,
            exit: { code: null, signal: 'SIGKILL', reason: e.reason, stderrTail: '' },
          }),
        );
      });
      return () => {};
    },
  );
  const handshake = fromPromise<{ tools: unknown[] }, HandshakeInput>(async () => {
    if (opts.handshakeHangs) await new Promise(() => {});
    return { tools: [] };
  });
  const pinger = fromCallback<{ type: 'noop' }, PingerInput>(() => () => {});
  const server: SupervisedServer = {
    id: 'a',
    disabled: false,
    timeouts: { startupMs: 1000, callMs: 1000, shutdownMs: 100 },
    health: { intervalMs: 0, timeoutMs: 100, failureThreshold: 3 },
    restart: {
      policy: 'on-failure',
      backoff: { initialMs: 100, multiplier: 2, maxMs: 1000, jitter: 0, resetAfterMs: 10_000 },
      limit: { maxRestarts: 3, windowMs: 60_000 },
    },
  };
  const machine = supervisorMachine.provide({
    actors: { server: serverMachine.provide({ actors: { process, handshake, pinger } }) },
  });
  const actor = createActor(machine, {
    clock,
    input: {
      strategy: 'one_for_one',
      limit: { maxRestarts: 100, windowMs: 60_000 },
      servers: [server],
      now: () => clock.now(),
      random: () => 0,
    },
  });
  actor.start();
  const ref = () => actor.getSnapshot().context.refs.a!;
  const flush = () => new Promise((r) => setTimeout(r, 0));
  return {
    actor,
    stops,
    clock,
    flush,
    state: () => serverStateOf(ref().getSnapshot()),
    lastExit: () => ref().getSnapshot().context.lastExit,
    restarts: () => actor.getSnapshot().context.books.children.a!.restarts,
    wedge: (reason: string, gen = generation) => send!({ type: 'PROC.WEDGED', generation: gen, reason }),
    generation: () => generation,
  };
}

describe('server machine: PROC.WEDGED from the runtime', () => {
  it('a ready server is killed at once with the reason given, and restarted as a counted failure', async () => {
    const h = harness();
    h.actor.send({ type: 'START_ALL' });
    await h.flush();
    expect(h.state()).toBe('ready');
    h.wedge('queue_full');
    await h.flush();
    expect(h.stops).toEqual([{ reason: 'queue_full', immediate: true, generation: 1 }]);
    expect(h.lastExit()).toMatchObject({ reason: 'queue_full' });
    expect(h.state()).toBe('backoff');
    h.clock.increment(100);
    await h.flush();
    expect(h.state()).toBe('ready');
    expect(h.restarts()).toBe(1);
  });

  it('also ends a start that is still in its handshake', async () => {
    const h = harness({ handshakeHangs: true });
    h.actor.send({ type: 'START_ALL' });
    await h.flush();
    expect(h.state()).toBe('handshaking');
    h.wedge('queue_full');
    await h.flush();
    expect(h.stops).toEqual([{ reason: 'queue_full', immediate: true, generation: 1 }]);
    expect(h.state()).toBe('backoff');
  });

  it('a report from an earlier process, or while stopping on request, changes nothing', async () => {
    const h = harness();
    h.actor.send({ type: 'START_ALL' });
    await h.flush();
    h.wedge('queue_full', h.generation() + 1);
    await h.flush();
    expect(h.state()).toBe('ready');
    expect(h.stops).toEqual([]);
    h.actor.send({ type: 'STOP', id: 'a' });
    h.wedge('queue_full');
    await h.flush();
    expect(h.stops.map((s) => s.reason)).toEqual(['stopped']);
    expect(h.state()).toBe('stopped');
    expect(h.restarts()).toBe(0);
  });
});
