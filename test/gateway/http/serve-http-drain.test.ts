import { afterEach, describe, expect, it } from 'vitest';
import type { DrainPhase } from '../../../src/gateway/http/drain.js';
import { type HttpGateway, serveHttp } from '../../../src/gateway/http/serve-http.js';
import { fixtureServer, fleetConfig, fleets } from '../../supervisor/fleet.js';
import { until } from '../serve-helpers.js';
import { MCP_POST, MODERN, raw } from './helpers.js';

// The drain of serveHttp (drain.ts): readiness first, the requests in flight last. A 2026 request holds no
// session, so only the count of requests in flight keeps its answer from being cut.

const { create, reap } = fleets();
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
  await reap();
});

/** A 2026 `tools/call` of the fixture's tool `tool`, sent raw. */
function modernCall(url: URL, tool: string, args: Record<string, unknown>) {
  const meta = {
    'io.modelcontextprotocol/protocolVersion': MODERN,
    'io.modelcontextprotocol/clientCapabilities': {},
    'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
  };
  return raw(url, {
    method: 'POST',
    headers: { ...MCP_POST, 'MCP-Protocol-Version': MODERN, 'Mcp-Method': 'tools/call', 'Mcp-Name': tool },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: tool, arguments: args, _meta: meta },
    }),
  });
}

async function serve(drain: { delayMs: number; timeoutMs: number }) {
  const { sup } = create(fleetConfig([fixtureServer('fx')]));
  const phases: DrainPhase[] = [];
  const http: HttpGateway = await serveHttp(sup, {
    address: { host: '127.0.0.1', port: 0 },
    drain,
    onDrain: (phase) => phases.push(phase),
  });
  closers.push(() => http.close());
  return { sup, http, url: new URL(http.url), phases };
}

const status = async (url: URL, path: string) => (await raw(url, { path })).status;

describe('serveHttp: drain', () => {
  it('answers a 2026 call in flight when new requests are refused, and refuses the next one (503, Connection: close)', async () => {
    const { sup, http, url, phases } = await serve({ delayMs: 0, timeoutMs: 20_000 });
    // Calls in flight are counted while someone listens for them.
    const stop = sup.onCall(() => {});
    const call = modernCall(url, 'fx.slow', { ms: 1000 });
    await until(() => (sup.load()[0]?.callsInFlight === 1 ? true : undefined), 10_000, 'the call under way');
    const drained = http.drain();
    expect(await status(url, '/readyz')).toBe(503);
    const late = await modernCall(url, 'fx.echo', { text: 'late' });
    expect([late.status, late.headers.connection]).toEqual([503, 'close']);
    expect(await status(url, '/healthz')).toBe(200);
    const answered = await call;
    expect(answered.status).toBe(200);
    expect(answered.body).toContain('"text":"done"');
    await drained;
    expect(await status(url, '/healthz')).toBe(503);
    stop();
    expect(phases).toEqual([
      { code: 'UNREADY', delayMs: 0 },
      { code: 'REFUSING', inFlight: 1, timeoutMs: 20_000 },
      { code: 'FINISHED' },
    ]);
  }, 30_000);

  it('cuts a call still running at the timeout: its answer never comes, and the drain ends', async () => {
    const { sup, http, phases } = await serve({ delayMs: 0, timeoutMs: 300 });
    const url = new URL(http.url);
    const stop = sup.onCall(() => {});
    const call = modernCall(url, 'fx.hang', {}).then(
      (r) => r.body,
      (err: Error) => err.message,
    );
    await until(() => (sup.load()[0]?.callsInFlight === 1 ? true : undefined), 10_000, 'the call under way');
    await http.drain();
    expect(await call).not.toContain('"result"');
    expect(phases.at(-1)).toEqual({ code: 'CUT', cut: 1 });
    stop();
  }, 30_000);

  it('is 503 starting until the fleet is up, which asking for it begins; then ready', async () => {
    const { sup, url } = await serve({ delayMs: 0, timeoutMs: 1000 });
    const first = await raw(url, { path: '/readyz' });
    expect([first.status, JSON.parse(first.body)]).toEqual([503, { status: 'starting' }]);
    // No client came: the probe alone started the fleet, and readiness follows it being up.
    await until(() => (sup.status()[0]?.state === 'ready' ? true : undefined), 10_000, 'the fleet up');
    await until(
      async () => ((await status(url, '/readyz')) === 200 ? true : undefined),
      10_000,
      '/readyz 200',
    );
  });

  it('is one drain however often asked; close() during its delay stops at once', async () => {
    const { http, url, phases } = await serve({ delayMs: 60_000, timeoutMs: 60_000 });
    await until(
      async () => ((await status(url, '/readyz')) === 200 ? true : undefined),
      10_000,
      '/readyz 200',
    );
    const first = http.drain();
    expect(http.drain({ delayMs: 0 })).toBe(first);
    const ready = await raw(url, { path: '/readyz' });
    expect([ready.status, JSON.parse(ready.body)]).toEqual([503, { status: 'draining' }]);
    // Still taking work in the delay.
    const echo = await modernCall(url, 'fx.echo', { text: 'still' });
    expect(echo.body).toContain('"text":"still"');
    await http.close();
    await first;
    expect(phases.map((p) => p.code)).toEqual(['UNREADY', 'REFUSING', 'FINISHED']);
    // The listener is closed (a pooled connection may be the one found closed first).
    await expect(raw(url, { path: '/healthz' })).rejects.toThrow(/ECONNREFUSED|socket hang up/);
  }, 30_000);
});
