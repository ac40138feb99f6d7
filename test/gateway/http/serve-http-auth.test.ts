import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliProcesses, ensureBuilt, writeFixtureConfig } from '../../cli/helpers.js';
import { type HttpServe, httpClient, INITIALIZE, MCP_POST, raw, startHttpServe } from './helpers.js';

// One `serve --http` with auth for the file: A (from the environment, scope mcp.read) and B (from a file, none).
const cli = cliProcesses();
const clients: Client[] = [];
const A = 'token-a-0123456789abcdef';
const B = 'token-b-0123456789abcdef';
const bearer = (t: string) => ({ Authorization: `Bearer ${t}` });
let serve: HttpServe;

beforeAll(async () => {
  await ensureBuilt();
  const dir = cli.tempDir();
  writeFileSync(join(dir, 'tokens.txt'), `# callers without scopes\n${B}\n`);
  const head = [
    'serve:',
    '  auth:',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the config's own reference to the environment
    '    tokens: [ { token: "${GATEWAY_TOKEN}", scopes: [mcp.read] } ]',
    '    tokensFile: tokens.txt',
    '',
  ].join('\n');
  const config = writeFixtureConfig(dir, [{ id: 'fx', extra: '    scopes_required: [mcp.read]' }], head);
  serve = await startHttpServe(cli, config, ['--json-response', '--session-idle', '400ms'], {
    GATEWAY_TOKEN: A,
  });
}, 60_000);

afterAll(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => {})));
  await cli.reap();
});

const text = (r: object) => ((r as { content?: Array<{ text?: string }> }).content ?? [])[0]?.text ?? '';

describe('serve --http with serve.auth', () => {
  it('answers 401 with the Bearer challenge without a token, and invalid_token for a wrong one', async () => {
    const init = (headers: Record<string, string>) =>
      raw(serve.url, { method: 'POST', headers: { ...MCP_POST, ...headers }, body: INITIALIZE });
    const none = await init({});
    expect([none.status, none.headers['www-authenticate']]).toEqual([401, 'Bearer realm="mcp-supervisor"']);
    const wrong = await init(bearer(`${A}x`));
    expect([wrong.status, wrong.headers['www-authenticate']]).toEqual([
      401,
      'Bearer realm="mcp-supervisor", error="invalid_token"',
    ]);
    // --json-response: the answer is one JSON body.
    const ok = await init(bearer(A));
    expect([ok.status, ok.headers['content-type']]).toEqual([200, 'application/json']);
    expect(JSON.parse(ok.body)).toMatchObject({ id: 1, result: { serverInfo: { name: 'mcp-supervisor' } } });
    expect((await raw(serve.url, { path: '/healthz' })).status).toBe(200);
    expect((await raw(serve.url, { path: '/readyz' })).status).toBe(200);
  }, 30_000);

  it('checks every call against its token’s scopes', async () => {
    const { client: a } = await httpClient(serve.url, clients, { headers: bearer(A) });
    const { client: b } = await httpClient(serve.url, clients, { headers: bearer(B) });
    const allowed = await a.callTool({ name: 'fx.echo', arguments: { text: 'hi' } });
    expect([allowed.isError, text(allowed)]).toEqual([undefined, 'hi']);
    const refused = await b.callTool({ name: 'fx.echo', arguments: { text: 'hi' } });
    expect([refused.isError, text(refused)]).toEqual([true, 'ERROR: forbidden: missing scopes: mcp.read']);
  }, 30_000);

  it('checks every 2026 stateless call against its own token’s scopes, in any order', async () => {
    const MODERN = '2026-07-28';
    const call = async (token: string, id: number) => {
      const meta = {
        'io.modelcontextprotocol/protocolVersion': MODERN,
        'io.modelcontextprotocol/clientCapabilities': {},
        'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
      };
      const params = { name: 'fx.echo', arguments: { text: `call ${id}` }, _meta: meta };
      const r = await raw(serve.url, {
        method: 'POST',
        headers: {
          ...MCP_POST,
          ...bearer(token),
          'MCP-Protocol-Version': MODERN,
          'Mcp-Method': 'tools/call',
          'Mcp-Name': 'fx.echo',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params }),
      });
      expect(r.status).toBe(200);
      return text((JSON.parse(r.body) as { result: object }).result);
    };
    // Alternating, and A twice in a row: whatever serve keeps between calls, B never gets A's scopes.
    expect(await call(A, 1)).toBe('call 1');
    expect(await call(B, 2)).toBe('ERROR: forbidden: missing scopes: mcp.read');
    expect(await call(A, 3)).toBe('call 3');
    expect(await call(A, 4)).toBe('call 4');
    expect(await call(B, 5)).toBe('ERROR: forbidden: missing scopes: mcp.read');
  }, 30_000);

  it('binds a session to its token: another token cannot use it', async () => {
    const { transport } = await httpClient(serve.url, clients, { headers: bearer(A) });
    const list = (token: string) =>
      raw(serve.url, {
        method: 'POST',
        headers: {
          ...MCP_POST,
          ...bearer(token),
          'Mcp-Session-Id': transport.sessionId!,
          'Mcp-Protocol-Version': '2025-11-25',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list' }),
      });
    expect((await list(B)).status).toBe(404);
    expect((await list(A)).status).toBe(200);
  }, 30_000);

  it('closes a session left without traffic, and keeps one whose GET stream is open', async () => {
    const { client: kept } = await httpClient(serve.url, clients, { headers: bearer(A) });
    const init = await raw(serve.url, {
      method: 'POST',
      headers: { ...MCP_POST, ...bearer(A) },
      body: INITIALIZE,
    });
    const id = String(init.headers['mcp-session-id']);
    await serve.proc.waitFor(new RegExp(`msg="session closed" session=${id} why=idle`), 10_000);
    const after = await raw(serve.url, {
      method: 'POST',
      headers: { ...MCP_POST, ...bearer(A), 'Mcp-Session-Id': id, 'Mcp-Protocol-Version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });
    expect(after.status).toBe(404);
    expect(text(await kept.callTool({ name: 'fx.echo', arguments: { text: 'still here' } }))).toBe(
      'still here',
    );
  }, 30_000);

  it('never passes a token to the servers', async () => {
    const { client } = await httpClient(serve.url, clients, { headers: bearer(A) });
    const env = text(await client.callTool({ name: 'fx.env', arguments: {} }));
    expect(env).toContain('"PATH"');
    expect(env).not.toContain(A);
    expect(env).not.toContain(B);
    expect(env).not.toContain('GATEWAY_TOKEN');
  }, 30_000);
});

describe('serve --http without serve.auth', () => {
  it('refuses a non-loopback address with exit 2 and starts nothing', async () => {
    const dir = cli.tempDir();
    const config = writeFixtureConfig(dir, [{ id: 'fx' }]);
    const r = await cli.runCli(['serve', config, '--http', '0.0.0.0:0', '--trust-all']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'mcp-supervisor: refusing to serve on 0.0.0.0, which is not a loopback address, without serve.auth: ' +
        'anyone who reaches it could call every tool (add serve.auth tokens, or bind 127.0.0.1)\n',
    );
  }, 30_000);

  it('a port already taken is one line and exit 1; --json-response without --http is a usage error', async () => {
    const dir = cli.tempDir();
    const config = writeFixtureConfig(dir, [{ id: 'fx' }]);
    const r = await cli.runCli(['serve', config, '--http', `127.0.0.1:${serve.url.port}`, '--trust-all']);
    expect([r.code, r.stderr]).toEqual([
      1,
      `mcp-supervisor: cannot listen on 127.0.0.1:${serve.url.port}: EADDRINUSE\n`,
    ]);
    const usage = await cli.runCli(['serve', config, '--json-response']);
    expect([usage.code, usage.stderr]).toEqual([2, 'mcp-supervisor: --json-response needs --http\n']);
  }, 30_000);
});
