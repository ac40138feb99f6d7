import { describe, expect, it } from 'vitest';
import { assign, createActor, fromCallback, fromPromise, SimulatedClock, setup } from 'xstate';
import { childOf } from '../../src/machines/books.js';
import {
  type HandshakeInput,
  type PingerInput,
  type ProcessActorInput,
  type ServerActorRef,
  type ServerMachineEvent,
  type ServerParentEvent,
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

  it('a re-list vetted while the first list is still being vetted is the list the server is ready with', async () => {
    const h = vetted(['a', 'b']);
    h.actor.send({ type: 'START' });
    await h.flush();
    const generation = h.actor.getSnapshot().context.generation;
    h.actor.send({ type: 'PROC.TOOLS', generation, tools: ['a', 'b', 'added'] });
    h.answer(['a', 'b']);
    await h.flush();
    expect(serverStateOf(h.actor.getSnapshot())).toBe('ready');
    expect(h.actor.getSnapshot().context.tools).toEqual(['a', 'b', 'added']);
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
    restarts: () => childOf(actor.getSnapshot().context.books, 'a')!.restarts,
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

/** A server machine under a bare parent that records everything the server tells it. */
function reporting(opts: { spawnLater?: boolean; handshakeHangs?: boolean } = {}) {
  const clock = new SimulatedClock();
  let spawn: (() => void) | undefined;
  const process = fromCallback<{ type: 'STOP'; reason: string; immediate: boolean }, ProcessActorInput>(
    ({ input, sendBack }) => {
      spawn = () =>
        sendBack({ type: 'PROC.SPAWNED', generation: input.generation, pid: 7000 + input.generation });
      if (!opts.spawnLater) spawn();
      return () => {};
    },
  );
  const handshake = fromPromise<{ tools: unknown[] }, HandshakeInput>(async () => {
    if (opts.handshakeHangs) await new Promise(() => {});
    return { tools: [] };
  });
  const parent = setup({
    types: { context: {} as { seen: ServerParentEvent[] }, events: {} as ServerParentEvent },
    actors: { server: serverMachine.provide({ actors: { process, handshake } }) },
  }).createMachine({
    context: { seen: [] },
    invoke: { id: 'server', src: 'server', input: { server: { ...config, id: 'r' } } },
    on: { '*': { actions: assign({ seen: ({ context, event }) => [...context.seen, event] }) } },
  });
  const root = createActor(parent, { clock });
  root.start();
  const server = root.getSnapshot().children.server as ServerActorRef;
  const flush = () => new Promise((r) => setTimeout(r, 0));
  const seen = () =>
    root.getSnapshot().context.seen.map((e) => (e.type === 'CHILD.PHASE' ? `${e.type} ${e.phase}` : e.type));
  const exitNow = (at: number, draw: number) =>
    server.send({
      type: 'PROC.EXIT',
      generation: server.getSnapshot().context.generation,
      exit: { code: 1, signal: null, reason: 'exited', stderrTail: '' },
      at,
      draw,
    });
  return { clock, root, server, flush, seen, exitNow, spawn: () => spawn!() };
}

describe('server machine: what it tells its parent', () => {
  it('reports every phase it enters, in order, and each exit with the time and draw the runtime stamped', async () => {
    const h = reporting();
    h.server.send({ type: 'START' });
    await h.flush();
    expect(serverStateOf(h.server.getSnapshot())).toBe('ready');
    h.exitNow(1234, 0.75);
    h.server.send({ type: 'RESTART_LATER' });
    h.server.send({ type: 'HALT' });
    h.server.send({ type: 'START' });
    await h.flush();
    h.exitNow(2000, 0.5);
    h.server.send({ type: 'GIVE_UP' });
    h.server.send({ type: 'START' });
    h.server.send({
      type: 'PROC.UNTRUSTED',
      generation: h.server.getSnapshot().context.generation,
      fingerprint: 'f1',
    });
    expect(h.seen()).toEqual([
      'CHILD.PHASE stopped',
      'CHILD.PHASE running',
      'CHILD.READY',
      'CHILD.EXITED',
      'CHILD.PHASE backoff',
      'CHILD.PHASE stopped',
      'CHILD.PHASE running',
      'CHILD.READY',
      'CHILD.EXITED',
      'CHILD.PHASE failed',
      'CHILD.PHASE running',
      'CHILD.UNTRUSTED',
      'CHILD.PHASE untrusted',
    ]);
    const exits = h.root.getSnapshot().context.seen.filter((e) => e.type === 'CHILD.EXITED');
    expect(exits.map((e) => ({ at: e.at, draw: e.draw, facts: e.facts }))).toEqual([
      {
        at: 1234,
        draw: 0.75,
        facts: { code: 1, signal: null, requested: false, beforeReady: false, wedged: false },
      },
      {
        at: 2000,
        draw: 0.5,
        facts: { code: 1, signal: null, requested: false, beforeReady: false, wedged: false },
      },
    ]);
  });

  // The parent may send STOP before it has read the exit (a sibling's failure, an escalation): its books already
  // hold the intent, and its answer to the exit is what moves the server on.
  it('in exited a STOP waits for the answer to the exit, so a group restart still brings it back', async () => {
    const h = reporting();
    h.server.send({ type: 'START' });
    await h.flush();
    h.exitNow(10, 0);
    h.server.send({ type: 'STOP', reason: 'sibling_restart' });
    expect(serverStateOf(h.server.getSnapshot())).toBe('exited');
    h.server.send({ type: 'RESTART_LATER' });
    expect(serverStateOf(h.server.getSnapshot())).toBe('backoff');
  });

  it('the budget starts at the spawn: ten budgets spent before it are no failed start', async () => {
    const h = reporting({ spawnLater: true, handshakeHangs: true });
    h.server.send({ type: 'START' });
    h.clock.increment(10 * config.timeouts.startupMs);
    expect(serverStateOf(h.server.getSnapshot())).toBe('spawning');
    h.spawn();
    h.clock.increment(config.timeouts.startupMs - 1);
    expect(serverStateOf(h.server.getSnapshot())).toBe('handshaking');
    h.clock.increment(1);
    expect(serverStateOf(h.server.getSnapshot())).toBe('stopping');
    expect(h.server.getSnapshot().context.stopReason).toBe('startup_timeout');
  });
});
