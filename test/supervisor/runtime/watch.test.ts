import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromCallback, fromPromise, SimulatedClock } from 'xstate';
import type { HandshakeInput, PingerInput, ProcessActorInput } from '../../../src/machines/server.machine.js';
import { serverMachine, serverStateOf } from '../../../src/machines/server.machine.js';
import {
  type SupervisedServer,
  serverRefOf,
  supervisorMachine,
} from '../../../src/machines/supervisor.machine.js';
import { ServerWatch } from '../../../src/supervisor/runtime/watch.js';
import type { SupervisorEvent } from '../../../src/supervisor/types.js';

// The real supervisor and server machines on a simulated clock; only the process, handshake and pinger are stand-ins
// (the watch reads snapshots, so what runs below the machines does not matter here).

function server(id: string, maxRestarts = 3): SupervisedServer {
  return {
    id,
    disabled: false,
    timeouts: { startupMs: 1000, callMs: 1000, shutdownMs: 100 },
    health: { intervalMs: 0, timeoutMs: 100, failureThreshold: 3 },
    restart: {
      policy: 'on-failure',
      backoff: { initialMs: 100, multiplier: 2, maxMs: 1000, jitter: 0, resetAfterMs: 10_000 },
      limit: { maxRestarts, windowMs: 60_000 },
    },
  };
}

const actors: Array<{ stop(): void }> = [];
const watches: ServerWatch[] = [];
afterEach(() => {
  for (const w of watches.splice(0)) w.detach();
  for (const a of actors.splice(0)) a.stop();
  vi.useRealTimers();
});

function harness(servers: SupervisedServer[], limit = { maxRestarts: 100, windowMs: 60_000 }) {
  const clock = new SimulatedClock();
  const live = new Map<string, (code: number | null) => void>();
  let pids = 4000;
  const process = fromCallback<{ type: 'STOP'; reason: string; immediate: boolean }, ProcessActorInput>(
    ({ input, sendBack, receive }) => {
      const { id } = input.server;
      let done = false;
      const exit = (code: number | null, reason = 'exited') => {
        if (done) return;
        done = true;
        live.delete(id);
        const stderrTail = `tail of ${id} #${input.generation}`;
        sendBack({
          type: 'PROC.EXIT',
          generation: input.generation,
          exit: { code, signal: null, reason, stderrTail },
          at: clock.now(),
          draw: 0,
        });
      };
      live.set(id, exit);
      sendBack({ type: 'PROC.SPAWNED', generation: input.generation, pid: ++pids });
      receive((e) => {
        if (e.type === 'STOP') queueMicrotask(() => exit(0, e.reason));
      });
      return () => {};
    },
  );
  const handshake = fromPromise<{ tools: unknown[] }, HandshakeInput>(async () => ({ tools: [] }));
  const pinger = fromCallback<{ type: 'noop' }, PingerInput>(() => () => {});
  const machine = supervisorMachine.provide({
    actors: { server: serverMachine.provide({ actors: { process, handshake, pinger } }) },
  });
  const actor = createActor(machine, { clock, input: { strategy: 'one_for_one', limit, servers } });
  actors.push(actor);
  actor.start();
  const events: SupervisorEvent[] = [];
  const snapshots: string[] = [];
  const watch = new ServerWatch(
    actor,
    () => clock.now(),
    (e) => events.push(e),
    (id, snap) => snapshots.push(`${id}:${serverStateOf(snap)}`),
  );
  watches.push(watch);
  watch.attach();
  /** The machine's own state of a server, read past the watch. */
  const machineState = (id: string) => serverRefOf(actor.getSnapshot(), id)!.getSnapshot();
  return { clock, live, actor, watch, events, snapshots, machineState };
}

const statesOf = (events: SupervisorEvent[], id: string) =>
  events.flatMap((e) => (e.type === 'state' && e.server === id ? [`${e.from}>${e.to}`] : []));
const exitsOf = (events: SupervisorEvent[]) => events.filter((e) => e.type === 'exit');

describe('ServerWatch', () => {
  it('turns snapshots into state events, in order, stamped with the injected clock', async () => {
    const h = harness([server('a'), server('b')]);
    h.clock.set(5000);
    const ready = Promise.all([
      h.watch.until('a', (s) => s === 'ready'),
      h.watch.until('b', (s) => s === 'ready'),
    ]);
    h.actor.send({ type: 'START_ALL' });
    expect(await ready).toEqual(['ready', 'ready']);
    expect(statesOf(h.events, 'a')).toEqual([
      'stopped>spawning',
      'spawning>handshaking',
      'handshaking>ready',
    ]);
    expect(statesOf(h.events, 'b')).toEqual([
      'stopped>spawning',
      'spawning>handshaking',
      'handshaking>ready',
    ]);
    for (const e of h.events) expect(e).toMatchObject({ at: 5000 });
    const row = h.watch.row('a', 0, { countFor: () => 7 });
    expect(row).toMatchObject({ id: 'a', state: 'ready', restarts: 0, since: 5000, tools: 7 });
    expect(row.pid).toBeGreaterThan(4000);
    expect(h.snapshots.filter((s) => s.startsWith('a:')).at(-1)).toBe('a:ready');
  });

  it('hides the instant of `exited` and reports each exit once, however many snapshots follow', async () => {
    const h = harness([server('a')]);
    h.actor.send({ type: 'START_ALL' });
    await h.watch.until('a', (s) => s === 'ready');
    h.clock.set(100);
    h.live.get('a')!(1);
    expect(await h.watch.until('a', (s) => s === 'backoff')).toBe('backoff');
    // the restart: several snapshots (spawning, handshaking, ready) that all still carry the same lastExit
    h.clock.increment(100);
    expect(await h.watch.until('a', (s) => s === 'ready')).toBe('ready');
    expect(exitsOf(h.events)).toEqual([
      {
        type: 'exit',
        server: 'a',
        code: 1,
        signal: null,
        reason: 'exited',
        stderrTail: 'tail of a #1',
        at: 100,
      },
    ]);
    h.live.get('a')!(2);
    await h.watch.until('a', (s) => s === 'backoff');
    expect(exitsOf(h.events).map((e) => e.type === 'exit' && e.code)).toEqual([1, 2]);
    expect(statesOf(h.events, 'a')).not.toContain('ready>exited');
    expect(statesOf(h.events, 'a')).toContain('ready>backoff');
    expect(h.watch.row('a', 1, { countFor: () => 0 }).lastExit).toMatchObject({ code: 2, reason: 'exited' });
    expect(h.watch.failure('a')).toBe('last exit code 2 (exited)');
  });

  it('until resolves at once when the predicate already holds, and with undefined for an unknown server', async () => {
    const h = harness([server('a')]);
    await expect(h.watch.until('a', (s) => s === 'stopped')).resolves.toBe('stopped');
    await expect(h.watch.until('nope', () => true)).resolves.toBeUndefined();
  });

  it('until waits for its own predicate, not for any change', async () => {
    const h = harness([server('a')]);
    const seen: string[] = [];
    const ready = h.watch.until('a', (s) => {
      seen.push(s);
      return s === 'ready';
    });
    h.actor.send({ type: 'START_ALL' });
    expect(await ready).toBe('ready');
    expect(seen).toEqual(expect.arrayContaining(['stopped', 'spawning', 'handshaking', 'ready']));
  });

  it('until gives up with undefined at its bound, and not a moment before', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const h = harness([server('a')]);
    let settled: unknown = 'pending';
    void h.watch
      .until('a', (s) => s === 'ready', 500)
      .then((s) => {
        settled = s;
      });
    await vi.advanceTimersByTimeAsync(499);
    expect(settled).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    expect(settled).toBeUndefined();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('until gives up with undefined when its signal aborts, and its predicate is never asked again', async () => {
    const h = harness([server('a')]);
    const ac = new AbortController();
    const pred = vi.fn((s: string) => s === 'ready');
    const waiting = h.watch.until('a', pred, undefined, ac.signal);
    ac.abort();
    expect(await waiting).toBeUndefined();
    const asked = pred.mock.calls.length;
    h.actor.send({ type: 'START_ALL' });
    // every waiter of a snapshot is asked in the same pass, so once this one resolved the old one had its chance
    await h.watch.until('a', (s) => s === 'ready');
    expect(pred).toHaveBeenCalledTimes(asked);
  });

  it('until with a signal that is never aborted leaves no listener behind once it resolves', async () => {
    const h = harness([server('a')]);
    const ac = new AbortController();
    const removed = vi.spyOn(ac.signal, 'removeEventListener');
    const ready = h.watch.until('a', (s) => s === 'ready', 10_000, ac.signal);
    h.actor.send({ type: 'START_ALL' });
    expect(await ready).toBe('ready');
    expect(removed).toHaveBeenCalledWith('abort', expect.any(Function));
  });

  it('detach releases every waiter with the state it last saw, and stops following', async () => {
    const h = harness([server('a'), server('b')]);
    const a = h.watch.until('a', (s) => s === 'failed');
    const b = h.watch.until('b', (s) => s === 'failed', 60_000);
    h.watch.detach();
    expect(await Promise.all([a, b])).toEqual(['stopped', 'stopped']);
    h.actor.send({ type: 'START_ALL' });
    // the machines reached ready (read past the watch): a watch still following would have said so
    await vi.waitFor(() => expect(serverStateOf(h.machineState('b'))).toBe('ready'));
    expect(serverStateOf(h.machineState('a'))).toBe('ready');
    expect(h.events).toEqual([]);
    expect(h.watch.row('a', 0, { countFor: () => 0 }).state).toBe('stopped');
  });

  it('emits escalated once when the supervisor gives up on the fleet', async () => {
    const h = harness([server('a'), server('b')], { maxRestarts: 1, windowMs: 60_000 });
    h.actor.send({ type: 'START_ALL' });
    await Promise.all([h.watch.until('a', (s) => s === 'ready'), h.watch.until('b', (s) => s === 'ready')]);
    h.live.get('a')!(1);
    await h.watch.until('a', (s) => s === 'backoff');
    h.live.get('b')!(1);
    await Promise.all([
      h.watch.until('a', (s) => s === 'failed' || s === 'stopped'),
      h.watch.until('b', (s) => s === 'failed' || s === 'stopped'),
    ]);
    const escalated = h.events.filter((e) => e.type === 'escalated');
    expect(escalated).toEqual([
      { type: 'escalated', reason: 'supervisor limit: more than 1 restarts within 60000 ms', at: 0 },
    ]);
  });
});
