import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SimulatedClock } from 'xstate';
import { liveGroups } from '../../src/process/ledger.js';
import { eventually, fixtureServer, fleetConfig, fleets, transitions } from './fleet.js';
import { gone, tempDir } from './helpers.js';

const f = fleets();
const dirs: Array<{ cleanup(): void }> = [];
afterEach(async () => {
  await f.reap();
  for (const d of dirs.splice(0)) d.cleanup();
  expect(liveGroups()).toEqual([]);
});

describe('Supervisor with real fixture servers', () => {
  it('starts in order, namespaces tools, routes calls, and leaves nothing after stop', async () => {
    const { sup, events } = f.create(
      fleetConfig([fixtureServer('alpha'), fixtureServer('beta', ['--tools', '2'])]),
    );
    await sup.start();
    const status = sup.status();
    expect(status.map((s) => [s.id, s.state])).toEqual([
      ['alpha', 'ready'],
      ['beta', 'ready'],
    ]);
    const names = sup.listTools().map((t) => t.name);
    expect(names).toContain('alpha.echo');
    expect(names).toContain('beta.tool_2');
    expect(sup.listTools().find((t) => t.name === 'beta.echo')).toMatchObject({
      server: 'beta',
      tool: 'echo',
    });
    expect(await sup.callTool('beta.echo', { text: 'routed' })).toBe('routed');
    expect(await sup.callTool('nobody.echo')).toBe("ERROR: unknown tool 'nobody.echo'");
    expect(transitions(events, 'alpha')).toEqual([
      'stopped>spawning',
      'spawning>approving',
      'approving>handshaking',
      'handshaking>ready',
    ]);
    expect(
      events.some((e) => e.type === 'tools' && e.server === 'beta' && e.added.includes('beta.echo')),
    ).toBe(true);
    const pids = status.map((s) => s.pid!);
    await sup.stop();
    await sup.stop();
    for (const pid of pids) expect(await gone(pid)).toBe(true);
    expect(sup.status().map((s) => s.state)).toEqual(['stopped', 'stopped']);
    expect(await sup.callTool('alpha.echo')).toBe('ERROR: supervisor is stopped');
  });

  it('a crash loop reaches failed after exactly maxRestarts restarts, each after its delay', async () => {
    const server = fixtureServer('loop', ['--exit-at-start', '1'], {
      restart: {
        limit: { maxRestarts: 3, windowMs: 60_000 },
        backoff: { initialMs: 40, multiplier: 2, maxMs: 1000 },
      },
    });
    // The delays are the subject: they run on the clock, which the test moves, not on a loaded machine's time.
    const clock = new SimulatedClock();
    const { sup, events } = f.create(fleetConfig([server]), { clock });
    const started = sup.start();
    const state = () => sup.status()[0]!.state;
    for (const delay of [40, 80, 160]) {
      await eventually(() => state() === 'backoff', 10_000, 'the backoff');
      clock.increment(delay - 1);
      expect(state()).toBe('backoff');
      // Timers fire inside increment(): the state right after it is the whole answer.
      clock.increment(1);
      expect(state()).toBe('spawning');
    }
    await started;
    expect(sup.status()[0]).toMatchObject({ state: 'failed', restarts: 3 });
    expect(events.filter((e) => e.type === 'exit')).toHaveLength(4);
    expect(await sup.callTool('loop.echo')).toMatch(/^ERROR: server 'loop' is failed: more than 3 restarts/);
  });

  it('on-failure ignores exit 0, and never never restarts', async () => {
    const { sup, events } = f.create(
      fleetConfig([fixtureServer('clean'), fixtureServer('temp', [], { restart: { policy: 'never' } })]),
    );
    await sup.start();
    // Both exit once ready, when told to (a timed exit could land before ready on a loaded machine).
    await Promise.all([
      sup.callToolOutcome('clean.crash', { code: 0 }),
      sup.callToolOutcome('temp.crash', { code: 1 }),
    ]);
    await eventually(() => sup.status().every((s) => s.state === 'stopped'), 10_000, 'both stopped');
    // `stopped` after an exit is the decision itself: a restart would have gone through `backoff` first, and a
    // stopped server has no timer left that could start it again.
    expect(sup.status().map((s) => s.restarts)).toEqual([0, 0]);
    // Both exits came after ready: an exit before ready would be a failed start, which always counts.
    // Each first launch is put to the (test's) approve callback: `approving` before the spawn.
    const once = [
      'stopped>spawning',
      'spawning>approving',
      'approving>handshaking',
      'handshaking>ready',
      'ready>stopped',
    ];
    expect(transitions(events, 'clean')).toEqual(once);
    expect(transitions(events, 'temp')).toEqual(once);
    const exits = (id: string) =>
      events.flatMap((e) => (e.type === 'exit' && e.server === id ? [e.code] : []));
    expect([exits('clean'), exits('temp')]).toEqual([[0], [1]]);
  });

  it('always restarts even a clean exit', async () => {
    // 300 ms after the handshake leaves room to reach ready even on a loaded machine; an exit before ready is a
    // failed start and would be counted differently.
    const { sup, events } = f.create(
      fleetConfig([
        fixtureServer('again', ['--exit-after', '300', '--exit-code', '0'], {
          restart: { policy: 'always' },
        }),
      ]),
    );
    await sup.start();
    await eventually(() => sup.status()[0]!.restarts >= 2, 10_000, 'two restarts');
    // After stop() nothing restarts any more, so the counts below are read from one settled record.
    await sup.stop();
    const restarts = sup.status()[0]!.restarts;
    const exits = events.filter((e) => e.type === 'exit' && e.reason === 'exited');
    expect(exits.length).toBeGreaterThanOrEqual(2);
    for (const e of exits) expect(e).toMatchObject({ server: 'again', code: 0, signal: null });
    // every clean exit was counted and went to backoff, and on to a new spawn; none to stopped
    const seen = transitions(events, 'again');
    expect(seen.filter((t) => t.endsWith('>backoff'))).toHaveLength(exits.length);
    expect(restarts).toBe(exits.length);
    expect(seen.filter((t) => t === 'backoff>spawning').length).toBeGreaterThanOrEqual(exits.length - 1);
    expect(seen).not.toContain('ready>stopped');
  });

  it('detects a wedged server by failed pings and restarts it as a failure', async () => {
    const { sup, events } = f.create(
      fleetConfig([
        fixtureServer('mute', ['--no-pong'], {
          health: { intervalMs: 30, timeoutMs: 30, failureThreshold: 2 },
        }),
      ]),
    );
    await sup.start();
    await eventually(() => transitions(events, 'mute').includes('ready>wedged'), 3000, 'wedged');
    await eventually(() => sup.status()[0]!.restarts >= 1, 3000, 'restart');
    const exit = events.find((e) => e.type === 'exit');
    expect(exit).toMatchObject({ reason: 'wedged' });
  });

  it('calls during a restart wait for ready; calls in flight at a crash resolve at once', async () => {
    const { sup } = f.create(
      fleetConfig([fixtureServer('svc', [], { restart: { backoff: { initialMs: 100 } } })]),
    );
    await sup.start();
    // A timeout no test lives to see: only the crash can end the hung call, and its text says it did.
    const hung = sup.callTool('svc.hang', {}, { timeoutMs: 10 * 60_000 });
    expect(await sup.callTool('svc.crash', {})).toMatch(/^ERROR: server exited \(code 1\)/);
    expect(await hung).toMatch(/^ERROR: server exited/);
    expect(await sup.callTool('svc.echo', { text: 'back' })).toBe('back');
    expect(sup.status()[0]!.restarts).toBe(1);
  });

  it('200 concurrent calls across a crash all resolve', async () => {
    const { sup } = f.create(
      fleetConfig([fixtureServer('busy', [], { restart: { backoff: { initialMs: 10 } } })]),
    );
    await sup.start();
    const before = Array.from({ length: 100 }, (_, i) =>
      sup.callTool('busy.slow', { ms: 200 + i }, { timeoutMs: 5000 }),
    );
    const crash = await sup.callTool('busy.crash');
    // Sent while the server is down or restarting: these wait for ready and then run.
    const after = Array.from({ length: 99 }, (_, i) =>
      sup.callTool('busy.echo', { text: `a${i}` }, { timeoutMs: 5000 }),
    );
    const results = [...(await Promise.all(before)), crash, ...(await Promise.all(after))];
    expect(results).toHaveLength(200);
    for (const r of results.slice(0, 101)) expect(r).toMatch(/^ERROR: server exited/);
    expect(results.slice(101)).toEqual(Array.from({ length: 99 }, (_, i) => `a${i}`));
    expect(sup.status()[0]).toMatchObject({ state: 'ready', restarts: 1 });
  });

  it('stop during backoff cancels the restart', async () => {
    // The backoff runs on the clock, which moves only when the test says: a stop that waited for it would never end.
    const clock = new SimulatedClock();
    const backoff = { initialMs: 5000, maxMs: 5000 };
    const { sup, events } = f.create(
      fleetConfig([fixtureServer('slowback', ['--exit-after', '300'], { restart: { backoff } })]),
      { clock },
    );
    await sup.start();
    await eventually(() => sup.status()[0]!.state === 'backoff', 3000, 'backoff');
    await sup.stop();
    expect(sup.status()[0]!.state).toBe('stopped');
    // The restart's time comes and goes (timers fire inside increment()): nothing is left to spawn.
    clock.increment(5000);
    expect(sup.status()[0]!.state).toBe('stopped');
    expect(events.filter((e) => e.type === 'state' && e.to === 'spawning')).toHaveLength(1);
  });

  it('one_for_all restarts every sibling, rest_for_one only those after the failed one', async () => {
    for (const [strategy, expected] of [
      ['one_for_all', ['a', 'b', 'c']],
      ['rest_for_one', ['b', 'c']],
    ] as const) {
      const { sup, events } = f.create(
        fleetConfig([fixtureServer('a'), fixtureServer('b'), fixtureServer('c')], { strategy }),
      );
      await sup.start();
      const before = sup.status().map((s) => s.pid);
      events.length = 0;
      await sup.callTool('b.crash');
      await eventually(
        () => sup.status().every((s) => s.state === 'ready') && events.length > 0,
        3000,
        'ready',
      );
      await eventually(() => sup.status().every((s) => s.state === 'ready'), 3000, 'all ready');
      const respawned = events.flatMap((e) => (e.type === 'state' && e.to === 'spawning' ? [e.server] : []));
      // The steps are in file order (test/machines holds that). When the last exit releases the group, that
      // child is still finishing its own step, so its start is delivered after its siblings': the set is the subject.
      expect([...respawned].sort()).toEqual(expected);
      const after = sup.status().map((s) => s.pid);
      expect(after[0] === before[0]).toBe(strategy === 'rest_for_one');
      await sup.stop();
    }
  });

  it('manual restart clears history; stopServer and startServer control one server', async () => {
    const { sup, events } = f.create(fleetConfig([fixtureServer('m')]));
    await sup.start();
    const pid = sup.status()[0]!.pid!;
    sup.restart('m');
    await eventually(
      () => sup.status()[0]!.state === 'ready' && sup.status()[0]!.pid !== pid,
      3000,
      'restarted',
    );
    expect(await gone(pid)).toBe(true);
    // a requested restart is not a failure: no backoff, and the restart count stays clean
    expect(sup.status()[0]).toMatchObject({ state: 'ready', restarts: 0 });
    expect(transitions(events, 'm')).not.toContain('ready>backoff');
    expect(events.filter((e) => e.type === 'exit')).toMatchObject([{ server: 'm', reason: 'restart' }]);
    const second = sup.status()[0]!.pid!;
    sup.stopServer('m');
    await eventually(() => sup.status()[0]!.state === 'stopped', 3000, 'stopped');
    expect(await gone(second)).toBe(true);
    expect(sup.status()[0]!.pid).toBeUndefined();
    sup.startServer('m');
    await eventually(() => sup.status()[0]!.state === 'ready', 3000, 'started');
    const third = sup.status()[0]!.pid!;
    expect([pid, second]).not.toContain(third);
    expect(await sup.callTool('m.echo', { text: 'back' })).toBe('back');
  });

  it('a failed start counts even with exit code 0, and crash-first recovers', async () => {
    const t = tempDir();
    dirs.push(t);
    const state = join(t.dir, 'count');
    const { sup } = f.create(
      fleetConfig([fixtureServer('flaky', ['--state-file', state, '--crash-first', '2'])]),
    );
    await sup.start();
    expect(sup.status()[0]).toMatchObject({ state: 'ready', restarts: 2 });
  });

  it('passes the inspect option to createActor: an inspector sees every server actor of the system', async () => {
    const seen = new Set<string>();
    const { sup } = f.create(fleetConfig([fixtureServer('i1'), fixtureServer('i2')]), {
      inspect: (e) => {
        if (e.type === '@xstate.snapshot') seen.add((e.actorRef as unknown as { id: string }).id);
      },
    });
    await sup.start();
    expect(seen).toContain('server:i1');
    expect(seen).toContain('server:i2');
    expect([...seen].some((id) => id.startsWith('process-'))).toBe(true);
    expect(sup.actor.getSnapshot().children['server:i1']).toBeDefined();
  });
});
