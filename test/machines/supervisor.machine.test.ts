import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, fromPromise, SimulatedClock } from 'xstate';
import { childOf } from '../../src/machines/books.js';
import type { HandshakeInput, PingerInput, ProcessActorInput } from '../../src/machines/server.machine.js';
import { serverMachine, serverStateOf } from '../../src/machines/server.machine.js';
import {
  type SupervisedServer,
  serverRefOf,
  supervisorMachine,
} from '../../src/machines/supervisor.machine.js';

/** Fake processes: each spawn is recorded; the test ends them with `exit(id, code)`. */
function harness(
  servers: SupervisedServer[],
  strategy: 'one_for_one' | 'one_for_all' | 'rest_for_one' = 'one_for_one',
  limit = { maxRestarts: 100, windowMs: 60_000 },
) {
  const clock = new SimulatedClock();
  const spawns: Array<{ id: string; generation: number; at: number }> = [];
  const stops: string[] = [];
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
          at: clock.now(),
          draw: 0,
        });
      };
      spawns.push({ id, generation: input.generation, at: clock.now() });
      live.set(id, exit);
      sendBack({
        type: 'PROC.SPAWNED',
        generation: input.generation,
        pid: 1000 + spawns.length,
      });
      receive((e) => {
        if (e.type === 'STOP') {
          stops.push(id);
          queueMicrotask(() => exit(0, e.reason));
        }
      });
      return () => {};
    },
  );
  let handshakeFails = 0;
  let handshakeHangs = false;
  const handshake = fromPromise<{ tools: unknown[] }, HandshakeInput>(async () => {
    if (handshakeHangs) await new Promise(() => {});
    if (handshakeFails > 0) {
      handshakeFails--;
      throw Object.assign(new Error('no'), { code: 'HANDSHAKE_FAILED' });
    }
    return { tools: [] };
  });
  const pings = new Set<(ok: boolean) => void>();
  const pinger = fromCallback<{ type: 'noop' }, PingerInput>(({ sendBack }) => {
    const f = (ok: boolean) => sendBack({ type: ok ? 'HEALTH.OK' : 'HEALTH.FAIL' });
    pings.add(f);
    return () => pings.delete(f);
  });
  const machine = supervisorMachine.provide({
    actors: { server: serverMachine.provide({ actors: { process, handshake, pinger } }) },
  });
  const actor = createActor(machine, {
    clock,
    input: {
      strategy,
      limit,
      servers,
    },
  });
  actor.start();
  const state = (id: string) => serverStateOf(serverRefOf(actor.getSnapshot(), id)!.getSnapshot());
  const flush = () => new Promise((r) => setTimeout(r, 0));
  const failHandshakes = (n: number) => {
    handshakeFails = n;
  };
  const hangHandshakes = () => {
    handshakeHangs = true;
  };
  const ping = (ok: boolean) => {
    for (const p of pings) p(ok);
  };
  const advance = async (ms: number) => {
    h0.clock.increment(ms);
    await flush();
  };
  const h0 = { clock };
  return { clock, spawns, live, stops, actor, state, flush, failHandshakes, hangHandshakes, ping, advance };
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

  it('resets the backoff after resetAfter of continuous ready, and not a ms before', async () => {
    const h = harness([
      server('a', {
        backoff: { initialMs: 100, multiplier: 2, maxMs: 10_000, jitter: 0, resetAfterMs: 1000 },
      }),
    ]);
    h.actor.send({ type: 'START_ALL' });
    await h.flush();
    const restartAfterCrash = async () => {
      h.live.get('a')!(1);
      await h.flush();
      const before = h.clock.now();
      const n = h.spawns.length;
      while (h.spawns.length === n) await h.advance(1);
      return h.clock.now() - before;
    };
    expect(await restartAfterCrash()).toBe(100);
    await h.advance(999);
    expect(await restartAfterCrash()).toBe(200);
    await h.advance(1000);
    expect(await restartAfterCrash()).toBe(100);
  });

  // Each attempt outlasts the window, so the window alone never holds more than two restarts: without a count of
  // failed starts in a row, a server that never answers `initialize` would be retried forever.
  it('a server that never becomes ready fails after maxRestarts + 1 starts, even when each outlasts the window', async () => {
    const slow = {
      backoff: { initialMs: 1000, multiplier: 2, maxMs: 30_000, jitter: 0, resetAfterMs: 60_000 },
      limit: { maxRestarts: 5, windowMs: 20_000 },
    };
    const a = { ...server('a', slow), timeouts: { startupMs: 30_000, callMs: 1000, shutdownMs: 100 } };
    const h = harness([a]);
    h.hangHandshakes();
    h.actor.send({ type: 'START_ALL' });
    await h.flush();
    // A generous cap on simulated time: six attempts of 30 s and the backoffs between them take 211 s.
    while (h.state('a') !== 'failed' && h.clock.now() < 900_000) await h.advance(500);
    expect(h.state('a')).toBe('failed');
    expect(h.spawns).toHaveLength(6);
    expect(h.clock.now()).toBeLessThanOrEqual(6 * 30_000 + (1000 + 2000 + 4000 + 8000 + 16_000) + 500);
    expect(h.actor.getSnapshot().context.failures.a).toBe('did not become ready in 6 starts in a row');
    // A start by hand forgets the count: the server gets its full budget again.
    h.actor.send({ type: 'START', id: 'a' });
    await h.flush();
    expect(h.state('a')).toBe('handshaking');
    await h.advance(30_000);
    expect(h.state('a')).toBe('backoff');
  });

  it('an exit before ready is a failed start that counts, even with code 0', async () => {
    const h = harness([server('a')]);
    h.failHandshakes(10);
    h.actor.send({ type: 'START_ALL' });
    for (let i = 0; i < 20 && h.state('a') !== 'failed'; i++) await h.advance(1000);
    expect(h.state('a')).toBe('failed');
    expect(h.spawns).toHaveLength(4);
  });

  it('exits we caused by a stop are clean: no restart, no count', async () => {
    const h = harness([server('a', { policy: 'always' })]);
    h.actor.send({ type: 'START_ALL' });
    await h.flush();
    h.actor.send({ type: 'STOP', id: 'a' });
    await h.flush();
    await h.advance(10_000);
    expect(h.state('a')).toBe('stopped');
    expect(childOf(h.actor.getSnapshot().context.books, 'a')!.restarts).toBe(0);
  });

  it('failureThreshold consecutive failed pings wedge the server; it is killed and restarted as a failure', async () => {
    const h = harness([{ ...server('a'), health: { intervalMs: 10, timeoutMs: 10, failureThreshold: 3 } }]);
    h.actor.send({ type: 'START_ALL' });
    await h.flush();
    h.ping(false);
    h.ping(false);
    h.ping(true);
    h.ping(false);
    h.ping(false);
    await h.flush();
    expect(h.state('a')).toBe('ready');
    h.ping(false);
    await h.flush();
    expect(h.spawns).toHaveLength(1);
    await h.advance(100);
    expect(h.spawns).toHaveLength(2);
    expect(childOf(h.actor.getSnapshot().context.books, 'a')!.restarts).toBe(1);
  });

  it('manual restart clears the history: the next crash waits the initial delay again', async () => {
    const h = harness([server('a')]);
    h.actor.send({ type: 'START_ALL' });
    await h.flush();
    h.live.get('a')!(1);
    await h.advance(100);
    h.live.get('a')!(1);
    await h.advance(200);
    h.actor.send({ type: 'RESTART', id: 'a' });
    await h.flush();
    expect(h.state('a')).toBe('ready');
    const n = h.spawns.length;
    h.live.get('a')!(1);
    await h.advance(99);
    expect(h.spawns).toHaveLength(n);
    await h.advance(1);
    expect(h.spawns).toHaveLength(n + 1);
  });

  it('the supervisor limit escalates: everything stops, in reverse order, and the reason is kept', async () => {
    const h = harness([server('a'), server('b'), server('c')], 'one_for_one', {
      maxRestarts: 2,
      windowMs: 60_000,
    });
    h.actor.send({ type: 'START_ALL' });
    await h.flush();
    for (const id of ['a', 'b']) {
      h.live.get(id)!(1);
      await h.advance(100);
    }
    expect(['a', 'b', 'c'].map(h.state)).toEqual(['ready', 'ready', 'ready']);
    h.live.get('c')!(1);
    await h.flush();
    await h.advance(1);
    expect(['a', 'b', 'c'].map(h.state)).toEqual(['stopped', 'stopped', 'failed']);
    expect(h.actor.getSnapshot().context.escalation).toMatch(/supervisor limit/);
    expect(h.stops).toEqual(['b', 'a']);
    await h.advance(10_000);
    expect(h.spawns).toHaveLength(5);
  });
});

describe('supervisor machine: reports that cross its own decisions', () => {
  // Two exits can wait in the supervisor's mailbox at once (both processes died while it was busy). Deciding the
  // first, it still counts the second server as running and stops it for the group: that STOP must not strand it.
  it('one_for_all brings back a sibling whose exit was still queued when the first exit was decided', async () => {
    const clock = new SimulatedClock();
    const crash = new Map<string, () => void>();
    const spawns: string[] = [];
    const process = fromCallback<{ type: 'STOP'; reason: string; immediate: boolean }, ProcessActorInput>(
      ({ input, sendBack, receive }) => {
        const { id } = input.server;
        const { generation } = input;
        spawns.push(id);
        let done = false;
        const exit = (code: number, reason: string) => {
          if (done) return;
          done = true;
          const e = { code, signal: null, reason, stderrTail: '' };
          sendBack({ type: 'PROC.EXIT', generation, exit: e, at: clock.now(), draw: 0 });
        };
        crash.set(id, () => exit(1, 'exited'));
        sendBack({ type: 'PROC.SPAWNED', generation, pid: 100 + spawns.length });
        receive((e) => queueMicrotask(() => exit(0, e.reason)));
        // While the supervisor is busy starting `d`, `b` and `c` die: both exits wait in its mailbox.
        if (id === 'd' && generation === 1) {
          crash.get('b')!();
          crash.get('c')!();
        }
        return () => {};
      },
    );
    const machine = supervisorMachine.provide({
      actors: { server: serverMachine.provide({ actors: { process } }) },
    });
    const servers = ['a', 'b', 'c', 'd'].map((id) => ({ ...server(id), disabled: id === 'd' }));
    const actor = createActor(machine, {
      clock,
      input: { strategy: 'one_for_all', limit: { maxRestarts: 100, windowMs: 60_000 }, servers },
    });
    actor.start();
    const flush = () => new Promise((r) => setTimeout(r, 0));
    const state = (id: string) => serverStateOf(serverRefOf(actor.getSnapshot(), id)!.getSnapshot());
    try {
      actor.send({ type: 'START_ALL' });
      await flush();
      expect(['a', 'b', 'c'].map(state)).toEqual(['ready', 'ready', 'ready']);
      actor.send({ type: 'START', id: 'd' });
      await flush();
      expect(['a', 'b', 'c', 'd'].map(state)).toEqual(['backoff', 'backoff', 'backoff', 'backoff']);
      clock.increment(100);
      await flush();
      expect(['a', 'b', 'c', 'd'].map(state)).toEqual(['ready', 'ready', 'ready', 'ready']);
      expect(spawns.slice(4)).toEqual(['a', 'b', 'c', 'd']);
    } finally {
      actor.stop();
    }
  });
});

describe('supervisor machine: a start or restart asked for while a stop is under way', () => {
  it('START during a requested stop starts the server once its exit is in, with no backoff', async () => {
    const h = harness([server('a')]);
    h.actor.send({ type: 'START_ALL' });
    await h.flush();
    h.actor.send({ type: 'STOP', id: 'a' });
    h.actor.send({ type: 'START', id: 'a' });
    // The fake process exits a microtask after its STOP: the START above reached the machine mid-stop.
    expect(h.stops).toEqual(['a']);
    await h.flush();
    expect(h.spawns.map((s) => [s.id, s.at])).toEqual([
      ['a', 0],
      ['a', 0],
    ]);
    expect(h.state('a')).toBe('ready');
    h.actor.stop();
  });

  it('RESTART during a requested stop brings the server back once', async () => {
    const h = harness([server('a')]);
    h.actor.send({ type: 'START_ALL' });
    await h.flush();
    h.actor.send({ type: 'STOP', id: 'a' });
    h.actor.send({ type: 'RESTART', id: 'a' });
    await h.flush();
    expect(h.spawns).toHaveLength(2);
    expect(h.state('a')).toBe('ready');
    h.actor.stop();
  });

  it('the last word wins: STOP, START, STOP leaves the server stopped', async () => {
    const h = harness([server('a')]);
    h.actor.send({ type: 'START_ALL' });
    await h.flush();
    h.actor.send({ type: 'STOP', id: 'a' });
    h.actor.send({ type: 'START', id: 'a' });
    h.actor.send({ type: 'STOP', id: 'a' });
    await h.flush();
    expect(h.state('a')).toBe('stopped');
    expect(h.spawns).toHaveLength(1);
    h.actor.stop();
  });

  it('START while a sibling restart stops the server starts it after that exit, not after the group delay', async () => {
    const h = harness([server('a'), server('b')], 'one_for_all');
    h.actor.send({ type: 'START_ALL' });
    await h.flush();
    // b's crash stops a; the START for a arrives before a's exit.
    h.live.get('b')!(1);
    h.actor.send({ type: 'START', id: 'a' });
    await h.flush();
    expect(h.state('a')).toBe('ready');
    expect(h.spawns.map((s) => s.id)).toEqual(['a', 'b', 'a']);
    await h.advance(100);
    expect(h.spawns.map((s) => s.id)).toEqual(['a', 'b', 'a', 'b']);
    expect(['a', 'b'].map(h.state)).toEqual(['ready', 'ready']);
    h.actor.stop();
  });
});
