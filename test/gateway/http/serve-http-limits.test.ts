import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliProcesses, ensureBuilt, writeFixtureConfig } from '../../cli/helpers.js';
import { type HttpServe, INITIALIZE, MCP_POST, raw, startHttpServe } from './helpers.js';

// One `serve --http` with at most 2 sessions and tokens from the config (A) and from a file (B, then C); a second
// one shares its sessions out per token.
const cli = cliProcesses();
const A = 'token-a-0123456789abcdef';
const B = 'token-b-0123456789abcdef';
const C = 'token-c-0123456789abcdef';
const bearer = (t: string) => ({ Authorization: `Bearer ${t}` });
let serve: HttpServe;
let tokensFile: string;
let config: string;

beforeAll(async () => {
  await ensureBuilt();
  const dir = cli.tempDir();
  tokensFile = join(dir, 'tokens.txt');
  writeFileSync(tokensFile, `${B}\n`);
  const head = [
    'serve:',
    '  maxSessions: 2',
    '  auth:',
    `    tokens: [ { token: ${A} } ]`,
    '    tokensFile: tokens.txt',
    '',
  ];
  config = writeFixtureConfig(dir, [{ id: 'fx' }], head.join('\n'));
  serve = await startHttpServe(cli, config, ['--json-response']);
}, 60_000);

afterAll(() => cli.reap());

const open = (token: string) =>
  raw(serve.url, { method: 'POST', headers: { ...MCP_POST, ...bearer(token) }, body: INITIALIZE });
const inSession = (token: string, id: string, method = 'POST') =>
  raw(serve.url, {
    method,
    headers: { ...MCP_POST, ...bearer(token), 'Mcp-Session-Id': id, 'Mcp-Protocol-Version': '2025-11-25' },
    ...(method === 'POST' ? { body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }) } : {}),
  });
const sessionOf = (r: { headers: Record<string, unknown> }) => String(r.headers['mcp-session-id']);

describe('serve --http: serve.maxSessions', () => {
  it('refuses an initialize past the cap with 503, Retry-After and a coded error; a DELETE frees a place', async () => {
    const ids: string[] = [];
    try {
      for (const _ of [1, 2]) {
        const r = await open(A);
        expect(r.status).toBe(200);
        ids.push(sessionOf(r));
      }
      const full = await open(A);
      expect([full.status, full.headers['retry-after'], full.headers['mcp-session-id']]).toEqual([
        503,
        '5',
        undefined,
      ]);
      expect(JSON.parse(full.body)).toEqual({
        jsonrpc: '2.0',
        id: 1,
        error: {
          code: -32000,
          message: 'Too many sessions: 2 are open; retry later',
          data: { code: 'TOO_MANY_SESSIONS', maxSessions: 2 },
        },
      });
      // The open sessions are not touched.
      expect((await inSession(A, ids[1]!)).status).toBe(200);
      expect((await inSession(A, ids.shift()!, 'DELETE')).status).toBe(200);
      const again = await open(A);
      expect(again.status).toBe(200);
      ids.push(sessionOf(again));
    } finally {
      for (const id of ids) await inSession(A, id, 'DELETE');
    }
  }, 30_000);
});

describe('serve --http: serve.maxSessionsPerToken', () => {
  // Its own serve: 3 sessions in all, 2 of them at most for one token.
  let shared: HttpServe;
  beforeAll(async () => {
    const head = ['serve:', '  maxSessions: 3', '  maxSessionsPerToken: 2', '  auth:'];
    const tokens = `    tokens: [ { token: ${A} }, { token: ${B} } ]`;
    const file = writeFixtureConfig(cli.tempDir(), [{ id: 'fx' }], [...head, tokens, ''].join('\n'));
    shared = await startHttpServe(cli, file, ['--json-response']);
  }, 60_000);
  const openAt = (token: string) =>
    raw(shared.url, { method: 'POST', headers: { ...MCP_POST, ...bearer(token) }, body: INITIALIZE });
  const endAt = (token: string, id: string) =>
    raw(shared.url, {
      method: 'DELETE',
      headers: { ...MCP_POST, ...bearer(token), 'Mcp-Session-Id': id, 'Mcp-Protocol-Version': '2025-11-25' },
    });

  it('refuses a token past its share with 429 while another token still gets a place; the cap in all stays 503', async () => {
    const held: Array<[string, string]> = [];
    try {
      for (const _ of [1, 2]) {
        const r = await openAt(A);
        expect(r.status).toBe(200);
        held.push([A, sessionOf(r)]);
      }
      const over = await openAt(A);
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
      const b = await openAt(B);
      expect(b.status).toBe(200);
      held.push([B, sessionOf(b)]);
      // Every place taken: the cap in all answers, whoever asks.
      expect((await openAt(B)).status).toBe(503);
      // A session of A's ended: A has room again.
      const [token, id] = held.shift()!;
      expect((await endAt(token, id)).status).toBe(200);
      const again = await openAt(A);
      expect(again.status).toBe(200);
      held.push([A, sessionOf(again)]);
    } finally {
      for (const [token, id] of held) await endAt(token, id);
    }
  }, 30_000);
});

describe('serve --http: serve.auth.tokensFile is read again when it changes', () => {
  it('accepts a token added, ends the sessions of a token taken out, keeps the last good tokens', async () => {
    writeFileSync(tokensFile, `${B}\n${C}\n`);
    await serve.proc.waitFor(/msg="tokens reloaded" trigger=watch .*tokens=3 added=1 removed=0/, 10_000);
    const c = await open(C);
    expect(c.status).toBe(200);
    const b = await open(B);
    expect(b.status).toBe(200);

    // B taken out, C moved to the first line: C's session stays, B's is closed and B is refused from now on.
    writeFileSync(tokensFile, `${C}\n`);
    await serve.proc.waitFor(/msg="tokens reloaded" trigger=watch .*tokens=2 added=0 removed=1/, 10_000);
    await serve.proc.waitFor(new RegExp(`msg="session closed" session=${sessionOf(b)} why=revoked`), 10_000);
    expect((await inSession(B, sessionOf(b))).status).toBe(401);
    expect((await open(B)).status).toBe(401);
    expect((await inSession(C, sessionOf(c))).status).toBe(200);

    // A file that no longer parses changes nothing, and says where it is wrong.
    writeFileSync(tokensFile, `${C}\n  short\n`);
    await serve.proc.waitFor(/msg="tokens file not applied: the last good tokens stay"/, 10_000);
    expect(serve.proc.stderr()).toMatch(
      /level=error event=tokens_problem msg="\S*tokens\.txt:2:3: a token must be at least 16 characters" file=\S*tokens\.txt line=2 col=3\n/,
    );
    expect((await inSession(C, sessionOf(c))).status).toBe(200);
    expect((await open(B)).status).toBe(401);
    // SIGHUP reads it again too.
    serve.proc.child.kill('SIGHUP');
    await serve.proc.waitFor(
      /msg="tokens file not applied: the last good tokens stay" trigger=SIGHUP/,
      10_000,
    );
    expect((await inSession(C, sessionOf(c))).status).toBe(200);
    // And so does `mcp-supervisor reload` from another terminal, beside the config.
    const reloaded = await cli.runCli(['reload', '--config', config]);
    expect([reloaded.code, reloaded.stdout, reloaded.stderr]).toEqual([0, 'no server changed\n', '']);
    await serve.proc.waitFor(
      /msg="tokens file not applied: the last good tokens stay" trigger=control/,
      10_000,
    );
    writeFileSync(tokensFile, `${B}\n`);
    await cli.runCli(['reload', '--config', config]);
    await serve.proc.waitFor(
      /msg="tokens reloaded" trigger=(control|watch) .*tokens=2 added=1 removed=1/,
      10_000,
    );
    expect((await open(B)).status).toBe(200);
    expect((await inSession(C, sessionOf(c))).status).toBe(401);
  }, 30_000);
});

describe('serve --http: bad limits', () => {
  it('names a bad serve.maxSessions at its line, and a bad --max-sessions', async () => {
    const dir = cli.tempDir();
    const config = writeFixtureConfig(dir, [{ id: 'fx' }], 'serve:\n  maxSessions: 0\n');
    const r = await cli.runCli(['serve', config, '--http', '127.0.0.1:0', '--trust-all']);
    expect([r.code, r.stderr]).toEqual([1, `${config}:2:3 serve.maxSessions: must be at least 1\n`]);
    const flag = await cli.runCli(['serve', config, '--http', '127.0.0.1:0', '--max-sessions', 'x']);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('expected a whole number, at least 1');
    const share = writeFixtureConfig(cli.tempDir(), [{ id: 'fx' }], 'serve:\n  maxSessionsPerToken: 0\n');
    const bad = await cli.runCli(['serve', share, '--http', '127.0.0.1:0', '--trust-all']);
    expect([bad.code, bad.stderr]).toEqual([
      1,
      `${share}:2:3 serve.maxSessionsPerToken: must be at least 1\n`,
    ]);
  }, 30_000);
});
