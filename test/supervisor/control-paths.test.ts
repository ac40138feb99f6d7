import { afterEach, describe, expect, it } from 'vitest';
import { liveGroups } from '../../src/process/ledger.js';
import type { SupervisorEvent } from '../../src/supervisor/types.js';
import { eventually, fixtureServer, fleetConfig, fleets } from './fleet.js';
import { gone } from './helpers.js';

const f = fleets();
afterEach(async () => {
  await f.reap();
  expect(liveGroups()).toEqual([]);
});

/** Resolves what `p` resolves, or `'still pending'` after `ms`: a hang becomes a failed assertion, not a stuck test. */
function within<T>(p: Promise<T>, ms: number): Promise<T | 'still pending'> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'still pending'>((r) => {
    timer = setTimeout(() => r('still pending'), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

describe('every control path terminates', () => {
  it('restart and startServer during stop() revive nothing, and stop() resolves with every process gone', async () => {
    const { sup } = f.create(fleetConfig([fixtureServer('a'), fixtureServer('b')]));
    await sup.start();
    const pids = sup.status().map((s) => s.pid!);
    const stopping = sup.stop();
    const answers = [sup.restart('a'), sup.startServer('b'), sup.restart('b'), sup.startServer('a')];
    expect(await within(stopping, 8000)).toBeUndefined();
    expect(answers).toEqual(Array(4).fill({ ok: false, code: 'STOPPED' }));
    for (const pid of pids) expect(await gone(pid)).toBe(true);
    expect(liveGroups()).toEqual([]);
    expect(sup.status().map((s) => s.state)).toEqual(['stopped', 'stopped']);
  });

  it('a restart sent just before stop() is overtaken: stop() resolves and the respawned process is reaped', async () => {
    const { sup, events } = f.create(fleetConfig([fixtureServer('a')]));
    await sup.start();
    expect(sup.restart('a')).toEqual({ ok: true });
    const stopping = sup.stop();
    expect(await within(stopping, 8000)).toBeUndefined();
    const spawned = events.flatMap((e) => (e.type === 'state' && e.to === 'spawning' ? [e.at] : []));
    expect(spawned.length).toBeGreaterThanOrEqual(1);
    expect(liveGroups()).toEqual([]);
    expect(sup.status()[0]).toMatchObject({ state: 'stopped' });
    expect(sup.status()[0]!.pid).toBeUndefined();
  });

  it('restart, startServer and stopServer name an unknown id in a coded outcome and a fleet notice', async () => {
    const { sup, events } = f.create(fleetConfig([fixtureServer('a')]));
    await sup.start();
    for (const answer of [sup.restart('nope'), sup.startServer('nope'), sup.stopServer('nope')]) {
      expect(answer).toEqual({ ok: false, code: 'UNKNOWN_SERVER' });
    }
    // Under no server: 'nope' is not one.
    expect(events.some((e) => 'server' in e && e.server === 'nope')).toBe(false);
    const notices = events.flatMap((e) => (e.type === 'notice' && e.server === null ? [e.message] : []));
    expect(notices).toEqual([
      "restart: unknown server 'nope' (servers: a)",
      "startServer: unknown server 'nope' (servers: a)",
      "stopServer: unknown server 'nope' (servers: a)",
    ]);
    expect(sup.stopServer('a')).toEqual({ ok: true });
    await eventually(() => sup.status()[0]!.state === 'stopped', 3000, 'stopped');
    expect(sup.startServer('a')).toEqual({ ok: true });
    await eventually(() => sup.status()[0]!.state === 'ready', 3000, 'ready again');
  });

  it('before start() a control call does nothing and says so', async () => {
    const { sup, events } = f.create(
      fleetConfig([fixtureServer('a', [], { disabled: true }), fixtureServer('b')]),
    );
    expect(sup.startServer('a')).toEqual({ ok: false, code: 'NOT_STARTED' });
    expect(sup.stopServer('b')).toEqual({ ok: false, code: 'NOT_STARTED' });
    expect(sup.restart('b')).toEqual({ ok: false, code: 'NOT_STARTED' });
    await sup.start();
    expect(sup.status().map((s) => s.state)).toEqual(['stopped', 'ready']);
    expect(events.filter((e) => e.type === 'state' && e.server === 'a')).toEqual([]);
  });

  it('after stop() every control call and every tool call answers with a code, and start() spawns nothing', async () => {
    const { sup, events } = f.create(fleetConfig([fixtureServer('a')]));
    await sup.start();
    await sup.stop();
    const seen = events.length;
    expect(sup.restart('a')).toEqual({ ok: false, code: 'STOPPED' });
    expect(sup.startServer('a')).toEqual({ ok: false, code: 'STOPPED' });
    expect(sup.stopServer('a')).toEqual({ ok: false, code: 'STOPPED' });
    expect(await sup.callTool('a.echo', { text: 'x' })).toBe('ERROR: supervisor is stopped');
    expect(await sup.callToolResult('a.echo', { text: 'x' })).toEqual({
      isError: true,
      content: [{ type: 'text', text: 'ERROR: supervisor is stopped' }],
      _meta: { 'mcp-supervisor/code': 'STOPPED' },
    });
    await sup.start();
    expect(events.slice(seen).filter((e) => e.type === 'state')).toEqual([]);
    expect(liveGroups()).toEqual([]);
  });
});

describe('a start asked for while a stop is under way', () => {
  /** The server's states and exits, in the order they were reported. */
  const trail = (events: readonly SupervisorEvent[]) =>
    events.flatMap((e) => (e.type === 'state' ? [e.to] : e.type === 'exit' ? ['exit'] : []));

  for (const verb of ['startServer', 'restart'] as const) {
    it(`${verb} right after stopServer starts the server again once the old process is gone`, async () => {
      const { sup, events } = f.create(fleetConfig([fixtureServer('a')]));
      await sup.start();
      const oldPid = sup.status()[0]!.pid!;
      const from = events.length;
      expect(sup.stopServer('a')).toEqual({ ok: true });
      expect(sup[verb]('a')).toEqual({ ok: true });
      // Both calls landed mid-stop: the old process has not exited yet.
      expect(sup.status()[0]!.state).toBe('stopping');
      await eventually(() => sup.status()[0]!.state === 'ready', 8000, 'ready again');
      expect(await gone(oldPid)).toBe(true);
      const newPid = sup.status()[0]!.pid!;
      expect(newPid).not.toBe(oldPid);
      expect(trail(events.slice(from))).toEqual(['stopping', 'exit', 'spawning', 'handshaking', 'ready']);
      expect(sup.status()[0]!.restarts).toBe(0);
    });
  }
});
