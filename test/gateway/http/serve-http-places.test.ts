import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { type BearerVerifier, type HttpGateway, serveHttp } from '../../../src/index.js';
import { fixtureServer, fleetConfig, fleets } from '../../supervisor/fleet.js';
import { until } from '../serve-helpers.js';
import { INITIALIZE, listen2026, MCP_POST, raw, type SseStream } from './helpers.js';

// What holds a place under serve.maxSessions and serve.maxSessionsPerToken: 2025 sessions and 2026 listen
// streams alike, and a session only while its client can use it. Through serveHttp on a loopback port.

const { create, reap } = fleets();
const closers: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
  await reap();
});

const A = 'token-a-0123456789abcdef';
const B = 'token-b-0123456789abcdef';
const bearer = (t: string) => ({ Authorization: `Bearer ${t}` });
/** Two static tokens, each its own credential. */
const verifier: BearerVerifier = {
  verify: async (token) =>
    token === A ? { id: 'a', scopes: [] } : token === B ? { id: 'b', scopes: [] } : undefined,
};

/** `serve --http` of one fixture server with these caps, its log lines collected. */
async function serve(
  serveConfig: { maxSessions: number; maxSessionsPerToken?: number },
  server = fixtureServer('a'),
  jsonResponse = false,
): Promise<{ http: HttpGateway; url: URL; log: Array<[string, Record<string, string>]> }> {
  const { sup } = create({ ...fleetConfig([server]), serve: serveConfig });
  const log: Array<[string, Record<string, string>]> = [];
  const http = await serveHttp(sup, {
    address: { host: '127.0.0.1', port: 0 },
    verifier,
    jsonResponse,
    onLog: (message, fields) => log.push([message, fields]),
  });
  closers.push(() => http.close());
  return { http, url: new URL(http.url), log };
}

/** A listen stream, closed after the test; its acknowledgement is waited for when it was accepted. */
async function listening(url: URL, id: number, token: string): Promise<SseStream> {
  const stream = await listen2026(url, id, bearer(token));
  closers.push(() => stream.close());
  if (stream.status === 200)
    await until(() => (stream.events.length > 0 ? true : undefined), 10_000, 'the acknowledgement');
  return stream;
}

const errorOf = async (stream: SseStream) => {
  await stream.ended;
  return JSON.parse(stream.text()).error;
};

describe('serve --http: a 2026 listen stream holds a place', () => {
  it('counts against serve.maxSessionsPerToken (429) and serve.maxSessions (503); a closed stream frees its place', async () => {
    const { url } = await serve({ maxSessions: 3, maxSessionsPerToken: 2 });
    const first = await listening(url, 1, A);
    expect(first.status).toBe(200);
    expect((await listening(url, 2, A)).status).toBe(200);
    const over = await listening(url, 3, A);
    expect([over.status, over.headers['retry-after']]).toEqual([429, '5']);
    expect(await errorOf(over)).toEqual({
      code: -32000,
      message: 'Too many sessions for this credential: it holds 2; close one or retry later',
      data: { code: 'TOO_MANY_SESSIONS_FOR_TOKEN', maxSessionsPerToken: 2 },
    });
    // Another token still gets the place left; then every place is taken, for a session as for a stream.
    expect((await listening(url, 4, B)).status).toBe(200);
    const full = await raw(url, { method: 'POST', headers: { ...MCP_POST, ...bearer(B) }, body: INITIALIZE });
    expect([full.status, JSON.parse(full.body).error.data]).toEqual([
      503,
      { code: 'TOO_MANY_SESSIONS', maxSessions: 3 },
    ]);
    const none = await listening(url, 5, B);
    expect(none.status).toBe(503);
    expect((await errorOf(none)).data).toEqual({ code: 'TOO_MANY_SESSIONS', maxSessions: 3 });
    // A's first stream dropped: A gets its place back once the server has seen the drop.
    first.close();
    const again = await until(
      async () => {
        const s = await listening(url, 6, A);
        return s.status === 200 ? s : undefined;
      },
      10_000,
      'a freed place',
    );
    expect(again.status).toBe(200);
  }, 30_000);
});

describe('serve --http: an initialize whose answer never reached its client', () => {
  it.each([
    ['an event stream', false],
    ['one JSON body', true],
  ])(
    'answered as %s: ends that session at once and frees its place',
    async (_, jsonResponse) => {
      // The first initialize starts the fleet and its answer waits for the slow server: the client is gone by then.
      const slow = fixtureServer('a', ['--slow-start', '1500']);
      const { url, log } = await serve({ maxSessions: 1 }, slow, jsonResponse);
      const opened = () => log.find(([m]) => m === 'session opened')?.[1];
      const gone = new Promise<void>((resolve) => {
        const req = request({
          host: url.hostname,
          port: url.port,
          method: 'POST',
          path: url.pathname,
          headers: { ...MCP_POST, ...bearer(A) },
        });
        req.on('error', () => resolve());
        req.on('close', () => resolve());
        req.end(INITIALIZE);
        // Dropped once the server made the session, before its answer could be written.
        void until(opened, 10_000, 'the session opened').then(() => req.destroy());
      });
      await gone;
      const session = opened()!.session;
      await until(
        () => log.find(([m, f]) => m === 'session closed' && f.session === session)?.[1],
        10_000,
        'the undelivered session closed',
      );
      expect(log.find(([m]) => m === 'session closed')?.[1]).toEqual({ session, why: 'undelivered' });
      const next = await raw(url, {
        method: 'POST',
        headers: { ...MCP_POST, ...bearer(A) },
        body: INITIALIZE,
      });
      expect(next.status).toBe(200);
      closers.push(async () => {
        await raw(url, {
          method: 'DELETE',
          headers: {
            ...bearer(A),
            'Mcp-Session-Id': String(next.headers['mcp-session-id']),
            'Mcp-Protocol-Version': '2025-11-25',
          },
        });
      });
    },
    30_000,
  );
});
