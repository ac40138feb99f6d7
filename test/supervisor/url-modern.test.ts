import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { httpFixtures } from '../fixtures/http-fixture.js';
import { fixtureServer, fleetConfig, fleets } from './fleet.js';

const MODERN_HTTP = fileURLToPath(new URL('../fixtures/modern-http-server.mjs', import.meta.url));
const f = fleets();
const fixtures = httpFixtures(MODERN_HTTP);
afterEach(async () => {
  await f.reap();
  await fixtures.killAll();
});

async function startModern(fx: { url: string }) {
  const server = fixtureServer('web', [], {
    command: '',
    args: [],
    remote: { url: fx.url, headers: {} },
    protocol: '2026-07-28',
    timeouts: { startupMs: 5000, callMs: 5000, shutdownMs: 1000 },
  });
  const { sup } = f.create(fleetConfig([server]));
  await sup.start();
  return sup;
}

describe('a url: server pinned to 2026-07-28', () => {
  it('is discovered and called statelessly, each request naming itself in its headers', async () => {
    const fx = await fixtures.start();
    const server = fixtureServer('web', [], {
      command: '',
      args: [],
      remote: { url: fx.url, headers: {} },
      protocol: '2026-07-28',
      timeouts: { startupMs: 5000, callMs: 5000, shutdownMs: 1000 },
    });
    const { sup } = f.create(fleetConfig([server]));
    await sup.start();
    expect(sup.status()[0]).toMatchObject({ id: 'web', state: 'ready', containment: 'remote' });
    expect(await sup.callTool('web.echo', { text: 'stateless' })).toBe('stateless');

    const discover = await fx.waitFor((r) => r.rpc === 'server/discover');
    expect(discover.headers).toMatchObject({
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'server/discover',
    });
    const call = await fx.waitFor((r) => r.rpc === 'tools/call');
    expect(call.headers).toMatchObject({ 'mcp-method': 'tools/call', 'mcp-name': 'echo' });
    // No handshake and no session: the 2025 era never went over the wire.
    expect(fx.seen.filter((r) => r.rpc === 'initialize' || r.session !== null)).toEqual([]);
  });

  it("answers a request it refuses with an HTTP error and a JSON-RPC error for that request: it is the call's answer, the server stays up", async () => {
    const fx = await fixtures.start();
    const sup = await startModern(fx);
    // The SDK refuses a tool that needs sampling from a request that did not declare it: -32021, HTTP 400.
    const refused = await sup.callToolOutcome('web.needs_sampling', {});
    expect(refused).toMatchObject({ ok: false, code: 'REMOTE_ERROR', rpcCode: -32021 });
    expect(sup.status()[0]).toMatchObject({ state: 'ready', restarts: 0 });
    expect(await sup.callTool('web.echo', { text: 'still here' })).toBe('still here');
  });

  it('sends the Mcp-Param header of each x-mcp-header parameter, as the 2026 server requires, base64 where the text needs it', async () => {
    const fx = await fixtures.start();
    const sup = await startModern(fx);
    expect(await sup.callTool('web.regional', { region: 'eu-west' })).toBe('region eu-west');
    expect(await sup.callTool('web.regional', { region: ' zürich ' })).toBe('region  zürich ');
    const calls = fx.seen.filter((r) => r.rpc === 'tools/call');
    expect(calls.map((r) => r.headers['mcp-param-region'])).toEqual([
      'eu-west',
      `=?base64?${Buffer.from(' zürich ').toString('base64')}?=`,
    ]);
    expect(sup.status()[0]).toMatchObject({ state: 'ready', restarts: 0 });
  });
});
