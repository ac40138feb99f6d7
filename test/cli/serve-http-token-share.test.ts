import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliProcesses, ensureBuilt, writeFixtureConfig } from './helpers.js';
import { type HttpServe, INITIALIZE, MCP_POST, raw, startHttpServe } from './http-helpers.js';

// One `serve --http` with 3 sessions in all, 2 of them at most for one token, and two tokens.
const cli = cliProcesses();
const A = 'token-a-0123456789abcdef';
const B = 'token-b-0123456789abcdef';
const bearer = (t: string) => ({ Authorization: `Bearer ${t}` });
let serve: HttpServe;

beforeAll(async () => {
  await ensureBuilt();
  const head = [
    'serve:',
    '  maxSessions: 3',
    '  maxSessionsPerToken: 2',
    '  auth:',
    `    tokens: [ { token: ${A} }, { token: ${B} } ]`,
    '',
  ];
  const config = writeFixtureConfig(cli.tempDir(), [{ id: 'fx' }], head.join('\n'));
  serve = await startHttpServe(cli, config, ['--json-response']);
}, 60_000);

afterAll(() => cli.reap());

const open = (token: string) =>
  raw(serve.url, { method: 'POST', headers: { ...MCP_POST, ...bearer(token) }, body: INITIALIZE });
const end = (token: string, id: string) =>
  raw(serve.url, {
    method: 'DELETE',
    headers: { ...MCP_POST, ...bearer(token), 'Mcp-Session-Id': id, 'Mcp-Protocol-Version': '2025-11-25' },
  });
const sessionOf = (r: { headers: Record<string, unknown> }) => String(r.headers['mcp-session-id']);

describe('serve --http: serve.maxSessionsPerToken', () => {
  it('refuses a token past its share with 429 while another token still gets a place; the cap in all stays 503', async () => {
    const held: Array<[string, string]> = [];
    try {
      for (const _ of [1, 2]) {
        const r = await open(A);
        expect(r.status).toBe(200);
        held.push([A, sessionOf(r)]);
      }
      const over = await open(A);
      expect([over.status, over.headers['retry-after'], over.headers['mcp-session-id']]).toEqual([
        429,
        '5',
        undefined,
      ]);
      expect(JSON.parse(over.body).error).toEqual({
        code: -32000,
        message: 'Too many sessions for this credential: it holds 2; close one or retry later',
        data: { code: 'TOO_MANY_SESSIONS_FOR_TOKEN', maxSessionsPerToken: 2 },
      });
      const b = await open(B);
      expect(b.status).toBe(200);
      held.push([B, sessionOf(b)]);
      // Every place taken: the cap in all answers, whoever asks.
      expect((await open(B)).status).toBe(503);
      // A session of A's ended: A has room again.
      const [token, id] = held.shift()!;
      expect((await end(token, id)).status).toBe(200);
      const again = await open(A);
      expect(again.status).toBe(200);
      held.push([A, sessionOf(again)]);
    } finally {
      for (const [token, id] of held) await end(token, id);
    }
  }, 30_000);

  it('names a bad serve.maxSessionsPerToken at its line', async () => {
    const config = writeFixtureConfig(cli.tempDir(), [{ id: 'fx' }], 'serve:\n  maxSessionsPerToken: 0\n');
    const r = await cli.runCli(['serve', config, '--http', '127.0.0.1:0', '--trust-all']);
    expect([r.code, r.stderr]).toEqual([1, `${config}:2:3 serve.maxSessionsPerToken: must be at least 1\n`]);
  }, 30_000);
});
