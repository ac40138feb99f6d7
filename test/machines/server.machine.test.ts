import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, fromPromise, SimulatedClock } from 'xstate';
import {
  type HandshakeInput,
  type PingerInput,
  type ProcessActorInput,
  type ServerMachineEvent,
  serverMachine,
  serverStateOf,
  type VetToolsInput,
} from '../../src/machines/server.machine.js';
import {
  type SupervisedServer,
  serverRefOf,
  supervisorMachine,
} from '../../src/machines/supervisor.machine.js';

const config = {
  id: 's',
  timeouts: { startupMs: 1000, callMs: 1000, shutdownMs: 100 },
  health: { intervalMs: 0, timeoutMs: 100, failureThreshold: 3 },
};

const supervised = {
  policy: 'on-failure' as const,
  backoff: { initialMs: 100, multiplier: 2, maxMs: 1000, jitter: 0, resetAfterMs: 10_000 },
  limit: { maxRestarts: 3, windowMs: 60_000 },
};

/** A server machine whose handshake lists `listed` at once and whose vetting waits for the test's answer. */
function vetted(listed: unknown[]) {
  const clock = new SimulatedClock();
  const stops: string[] = [];
  let answer!: (tools: unknown[]) => void;
  const process = fromCallback<{ type: 'STOP'; reason: string; immediate: boolean }, ProcessActorInput>(
    ({ input, sendBack, receive }) => {
      sendBack({ type: 'PROC.SPAWNED', generation: input.generation, pid: 4242 });
      receive((e) => stops.push(e.reason));
      return () => {};
    },
  );
  const handshake = fromPromise<{ tools: unknown[] }, HandshakeInput>(async () => ({ tools: listed }));
  const vetTools = fromPromise<{ tools: unknown[] }, VetToolsInput>(
    ({ input }) =>
      new Promise((resolve) => {
        answer = (tools) => resolve({ tools: tools.filter((t) => input.tools.includes(t)) });
      }),
  );
  // Under a supervisor: a ready server reports to its parent.
  const root = createActor(
    supervisorMachine.provide({
      actors: { server: serverMachine.provide({ actors: { process, handshake, vetTools } }) },
    }),
    {
      clock,
      input: {
        strategy: 'one_for_one',
        limit: { maxRestarts: 10, windowMs: 60_000 },
        servers: [{ ...config, disabled: false, restart: supervised }],
      },
    },
  );
  root.start();
  const actor = serverRefOf(root.getSnapshot(), 's')!;
  const flush = () => new Promise((r) => setTimeout(r, 0));
  return { clock, actor, stops, flush, answer: (tools: unknown[]) => answer(tools) };
}

describe('server machine: vetting the tool list', () => {
  it('waiting for changed tools to be approved runs no startup budget, and hosts still see handshaking', async () => {
    const h = vetted(['a', 'b']);
    h.actor.send({ type: 'START' });
    await h.flush();
    expect(h.actor.getSnapshot().matches({ running: { starting: { handshaking: 'vetting' } } })).toBe(true);
    expect(serverStateOf(h.actor.getSnapshot())).toBe('handshaking');
    // Ten startup budgets pass while a person thinks.
    for (let i = 0; i < 10; i++) {
      h.clock.increment(1000);
      await h.flush();
    }
    expect(serverStateOf(h.actor.getSnapshot())).toBe('handshaking');
    expect(h.stops).toEqual([]);
    h.answer(['a']);
    await h.flush();
    expect(serverStateOf(h.actor.getSnapshot())).toBe('ready');
    expect(h.actor.getSnapshot().context.tools).toEqual(['a']);
  });

  it('the budget still ends a handshake that never lists its tools', async () => {
    const clock = new SimulatedClock();
    const stops: string[] = [];
    const process = fromCallback<{ type: 'STOP'; reason: string; immediate: boolean }, ProcessActorInput>(
      ({ input, sendBack, receive }) => {
        sendBack({ type: 'PROC.SPAWNED', generation: input.generation, pid: 4242 });
        receive((e) => stops.push(e.reason));
        return () => {};
      },
    );
    const handshake = fromPromise<{ tools: unknown[] }, HandshakeInput>(() => new Promise(() => {}));
    const actor = createActor(serverMachine.provide({ actors: { process, handshake } }), {
      clock,
      input: { server: config },
    });
    actor.start();
    actor.send({ type: 'START' });
    clock.increment(999);
    expect(stops).toEqual([]);
    clock.increment(1);
    expect(stops).toEqual(['startup_timeout']);
    expect(serverStateOf(actor.getSnapshot())).toBe('stopping');
  });
});

/** One server under a supervisor, with a fake process whose `send` reports as the runtime would. */
function wedgeHarness(opts: { handshakeHangs?: boolean } = {}) {
  const clock = new SimulatedClock();
  const stops: Array<{ reason: string; immediate: boolean; generation: number }> = [];
  let send: ((e: ServerMachineEvent) => void) | undefined;
  let generation = -1;
  const process = fromCallback<{ type: 'STOP'; reason: string; immediate: boolean }, ProcessActorInput>(
    ({ input, sendBack, receive }) => {
      generation = input.generation;
      send = sendBack;
      sendBack({ type: 'PROC.SPAWNED', generation, pid: 4242 });
      receive((e) => {
        stops.push({ reason: e.reason, immediate: e.immediate, generation: input.generation });
        queueMicrotask(() =>
          sendBack({
            type: 'PROC.EXIT',
            generation: input.generation,
            exit: { code: null, signal: 'SIGKILL', reason: e.reason, stderrTail: '' },
            at: clock.now(),
            draw: 0,
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
    },
  });
  actor.start();
  const ref = () => serverRefOf(actor.getSnapshot(), 'a')!;
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
    const h = wedgeHarness();
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
    const h = wedgeHarness({ handshakeHangs: true });
    h.actor.send({ type: 'START_ALL' });
    await h.flush();
    expect(h.state()).toBe('handshaking');
    h.wedge('queue_full');
    await h.flush();
    expect(h.stops).toEqual([{ reason: 'queue_full', immediate: true, generation: 1 }]);
    expect(h.state()).toBe('backoff');
  });

  it('a report from an earlier process, or while stopping on request, changes nothing', async () => {
    const h = wedgeHarness();
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
