import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { type InspectionEvent, SimulatedClock } from 'xstate';
import { eventually, fixtureServer, fleetConfig, fleets, transitions } from './fleet.js';
import { readLog, tempDir } from './helpers.js';

const MODERN = fileURLToPath(new URL('../fixtures/modern-server.mjs', import.meta.url));
const EVERYTHING = createRequire(import.meta.url).resolve(
  '@modelcontextprotocol/server-everything/dist/index.js',
);

const f = fleets();
const dirs: Array<{ cleanup(): void }> = [];
afterEach(async () => {
  await f.reap();
  for (const d of dirs.splice(0)) d.cleanup();
});
const logFile = () => {
  const t = tempDir();
  dirs.push(t);
  return join(t.dir, 'log');
};
const methods = (log: string) => readLog(log).map((m) => m.method);

describe('the supervisor and the era of its servers', () => {
  it('keeps a 2026 server ready through minutes of simulated health checks (discover, not ping)', async () => {
    const clock = new SimulatedClock();
    const log = logFile();
    const health = { intervalMs: 10_000, timeoutMs: 2000, failureThreshold: 2 };
    // A startup budget long enough that the probe's answer comes within its bound (a third of it, at most 2 s) even
    // on a loaded machine: a later answer would send initialize beside it, which is another test's subject.
    const timeouts = { startupMs: 20_000, callMs: 3000, shutdownMs: 300 };
    const modern = fixtureServer('m', [], { args: [MODERN, '--log', log], health, timeouts });
    // The same checks against a 2025 server that stopped answering ping: it must be found wedged.
    const control = fixtureServer('c', ['--no-pong'], { health: { ...health, timeoutMs: 200 } });
    // Each health check's answer, as the server machine hears it: the clock moves only while none is in flight,
    // since a check's deadline runs on the same clock.
    let checksOk = 0;
    const serverOf = (e: InspectionEvent) =>
      (e.actorRef.getSnapshot() as { context?: { server?: { id?: string } } }).context?.server?.id;
    const inspect = (e: InspectionEvent) => {
      if (e.type === '@xstate.event' && e.event.type === 'HEALTH.OK' && serverOf(e) === 'm') checksOk++;
    };
    const { sup, events } = f.create(fleetConfig([modern, control]), { clock, inspect });
    await sup.start();
    const row = sup.status().find((s) => s.id === 'm')!;
    expect(row.state).toBe('ready');
    expect(row.server?.protocolVersion).toBe('2026-07-28');
    expect(sup.status().find((s) => s.id === 'c')!.server?.protocolVersion).toBe('2025-11-25');
    const ready = (id: string) =>
      events.find((e) => e.type === 'state' && e.server === id && e.to === 'ready');
    expect(ready('m')).toMatchObject({ protocolVersion: '2026-07-28' });
    expect(ready('c')).toMatchObject({ protocolVersion: '2025-11-25' });
    expect(await sup.callTool('m.echo', { text: 'modern' })).toBe('modern');
    const discovers = () => methods(log).filter((m) => m === 'server/discover').length;
    const before = discovers();
    // One interval of the clock at a time, each check answered before the next: 18 checks over 3 simulated minutes.
    let advanced = 0;
    const advance = () => {
      clock.increment(10_000);
      advanced += 10_000;
      return false;
    };
    for (let i = 1; i <= 18; i++) {
      advance();
      await eventually(() => checksOk >= i && discovers() >= before + i, 5000, `health check ${i}`);
    }
    expect(advanced).toBeGreaterThanOrEqual(180_000);
    // Its pings get no answer, and each times out 200 ms of the clock after it went out: two have failed by now.
    const wedged = () => transitions(events, 'c').includes('ready>wedged');
    await eventually(() => wedged() || advance(), 5000, 'the control wedged');
    expect(sup.status().find((s) => s.id === 'm')!.state).toBe('ready');
    expect(transitions(events, 'm')).not.toContain('ready>wedged');
    expect(methods(log)).not.toContain('ping');
    expect(methods(log)).not.toContain('initialize');
  });

  it('a restart of the same configuration reuses its era: a 2025 server is probed once, ever', async () => {
    const log = logFile();
    const { sup } = f.create(fleetConfig([fixtureServer('l', ['--log', log])]));
    await sup.start();
    expect(await sup.callTool('l.crash', {})).toMatch(/^ERROR: /);
    await eventually(
      () => sup.status()[0]!.restarts === 1 && sup.status()[0]!.state === 'ready',
      5000,
      'back',
    );
    expect(await sup.callTool('l.echo', { text: 'again' })).toBe('again');
    const seen = methods(log);
    expect(seen.filter((m) => m === 'initialize')).toHaveLength(2);
    expect(seen.filter((m) => m === 'server/discover')).toHaveLength(1);
  });

  it('a 2025 server that dies of the probe is restarted straight into initialize', async () => {
    const log = logFile();
    const { sup, events } = f.create(fleetConfig([fixtureServer('d', ['--log', log, '--exit-on-discover'])]));
    await sup.start();
    await eventually(() => sup.status()[0]!.state === 'ready', 5000, 'ready after one restart');
    expect(transitions(events, 'd')).toContain('handshaking>backoff');
    expect(events.find((e) => e.type === 'exit')).toMatchObject({ code: 1 });
    expect(await sup.callTool('d.echo', { text: 'up' })).toBe('up');
    expect(methods(log).filter((m) => m === 'server/discover')).toHaveLength(1);
  });

  it('a restarted 2026 server sends one discover as its handshake and never initialize', async () => {
    const log = logFile();
    const { sup } = f.create(fleetConfig([fixtureServer('m', [], { args: [MODERN, '--log', log] })]));
    await sup.start();
    const pid = sup.status()[0]!.pid;
    // The first start may also draw an initialize on a loaded machine (a late discover answer still wins there).
    const first = methods(log);
    expect(first[0]).toBe('server/discover');
    expect(sup.restart('m')).toMatchObject({ ok: true });
    await eventually(() => sup.status()[0]!.state === 'ready' && sup.status()[0]!.pid !== pid, 5000, 'back');
    expect(await sup.callTool('m.add', { a: 1, b: 2 })).toBe('3');
    // What the first process logged after `first` is its listings; the restarted one's handshake is one discover.
    const later = methods(log).slice(first.length);
    expect(later.filter((m) => m === 'server/discover')).toHaveLength(1);
    expect(later).not.toContain('initialize');
    expect(later).toContain('tools/call');
  });

  it('server-everything (2025, official SDK) under auto is started and called as before', async () => {
    const server = fixtureServer('ev', [], {
      args: [EVERYTHING, 'stdio'],
      timeouts: { startupMs: 10_000, callMs: 10_000, shutdownMs: 1000 },
    });
    const { sup } = f.create(fleetConfig([server]));
    await sup.start();
    expect(sup.status()[0]).toMatchObject({ state: 'ready', server: { protocolVersion: '2025-11-25' } });
    expect(await sup.callTool('ev.echo', { message: 'hi' })).toContain('hi');
  });
});
