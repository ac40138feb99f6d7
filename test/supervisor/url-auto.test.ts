import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerConfig } from '../../src/config/types.js';
import { httpFixtures } from '../fixtures/http-fixture.js';
import { eventually, fixtureServer, fleetConfig, fleets, transitions } from './fleet.js';

const MODERN_HTTP = fileURLToPath(new URL('../fixtures/modern-http-server.mjs', import.meta.url));
const f = fleets();
const legacyFixtures = httpFixtures();
const modernFixtures = httpFixtures(MODERN_HTTP);
afterEach(async () => {
  await f.reap();
  await legacyFixtures.killAll();
  await modernFixtures.killAll();
});

// No `protocol:`: auto. The probe's bound is min(2 s, startup / 3).
function urlServer(id: string, url: string, startupMs = 3000): ServerConfig {
  return fixtureServer(id, [], {
    command: '',
    args: [],
    remote: { url, headers: {} },
    timeouts: { startupMs, callMs: 5000, shutdownMs: 1000 },
  });
}

describe('a url: server under protocol: auto', () => {
  it('a sessionful 2025 server refuses the sessionless probe, is started with initialize, and is not probed again on restart', async () => {
    const fx = await legacyFixtures.start();
    const { sup, events } = f.create(fleetConfig([urlServer('old', fx.url)]));
    await sup.start();
    expect(sup.status()[0]).toMatchObject({ state: 'ready', server: { protocolVersion: '2025-11-25' } });
    expect(await sup.callTool('old.echo', { text: 'after the probe' })).toBe('after the probe');
    // The probe went first, with no session, and its HTTP 400 did not end the run that followed.
    expect(fx.seen[0]).toMatchObject({ method: 'POST', rpc: 'server/discover', session: null });
    expect(fx.seen[0]!.headers).toMatchObject({
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'server/discover',
    });
    expect(fx.seen[1]).toMatchObject({ rpc: 'initialize' });
    expect(events.some((e) => e.type === 'exit')).toBe(false);

    expect(sup.restart('old')).toMatchObject({ ok: true });
    await eventually(
      () => fx.seen.filter((r) => r.rpc === 'initialize').length === 2 && sup.status()[0]!.state === 'ready',
      5000,
      'ready again',
    );
    expect(await sup.callTool('old.echo', { text: 'again' })).toBe('again');
    expect(fx.seen.filter((r) => r.rpc === 'server/discover')).toHaveLength(1);
    expect(transitions(events, 'old')).not.toContain('handshaking>backoff');
  });

  it('a 2026-only server answers the probe and is spoken to statelessly, never initialized', async () => {
    const fx = await modernFixtures.start();
    const { sup } = f.create(fleetConfig([urlServer('new', fx.url)]));
    await sup.start();
    expect(sup.status()[0]).toMatchObject({ state: 'ready', server: { protocolVersion: '2026-07-28' } });
    expect(await sup.callTool('new.echo', { text: 'stateless' })).toBe('stateless');
    const call = await fx.waitFor((r) => r.rpc === 'tools/call');
    expect(call.headers).toMatchObject({ 'mcp-protocol-version': '2026-07-28', 'mcp-name': 'echo' });
    expect(fx.seen.filter((r) => r.rpc === 'initialize' || r.session !== null)).toEqual([]);
  });

  it('a server that never answers the probe is started with initialize once the probe bound runs out', async () => {
    const fx = await legacyFixtures.start(['--silent-discover']);
    // A 6 s start: the probe gives up after 2 s, leaving room for initialize on a loaded machine.
    const { sup, events } = f.create(fleetConfig([urlServer('quiet', fx.url, 6000)]));
    await sup.start();
    // Ready at the first start: a probe waited for the whole start would have been a startup timeout, then backoff.
    expect(sup.status()[0]).toMatchObject({ state: 'ready', server: { protocolVersion: '2025-11-25' } });
    expect(transitions(events, 'quiet')).toEqual([
      'stopped>spawning',
      'spawning>approving',
      'approving>handshaking',
      'handshaking>ready',
    ]);
    expect(fx.seen.map((r) => r.rpc).slice(0, 2)).toEqual(['server/discover', 'initialize']);
    expect(await sup.callTool('quiet.echo', { text: 'fell back' })).toBe('fell back');
  });
});
