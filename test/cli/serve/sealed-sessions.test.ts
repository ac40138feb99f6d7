import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { httpClient, MCP_POST, MODERN, raw, sse, startHttpServe } from '../../gateway/http/helpers.js';
import { ENVELOPE_2026 } from '../../gateway/raw-front.js';
import { postModern } from '../../gateway/serve-2026-helpers.js';
import { serveClients } from '../../gateway/serve-helpers.js';
import { ROOT, writeFixtureConfig } from '../helpers.js';

const { cli, clients } = serveClients();
const TASKS = join(ROOT, 'test', 'fixtures', 'tasks-server.mjs');

/** A tools/call of `echo` sent by hand on a session, to any replica; the answer's status and its text, if any. */
async function echoOn(url: URL, session: string, text: string): Promise<{ status: number; text?: string }> {
  const answer = await raw(url, {
    method: 'POST',
    headers: { ...MCP_POST, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'fx.echo', arguments: { text } },
    }),
  });
  const json =
    /^data: (.*)$/m.exec(answer.body)?.[1] ?? (answer.body.startsWith('{') ? answer.body : undefined);
  const result = json
    ? (JSON.parse(json) as { result?: { content?: Array<{ text?: string }> } }).result
    : undefined;
  const said = result?.content?.[0]?.text;
  return said === undefined ? { status: answer.status } : { status: answer.status, text: said };
}

describe('sealed session ids (serve.sessionKey, --session-key-file)', () => {
  it('any replica with the key answers a session another opened, and after every replica was replaced', async () => {
    const dir = cli.tempDir();
    const config = writeFixtureConfig(dir, [{ id: 'fx' }]);
    const keyFile = join(dir, 'session.key');
    writeFileSync(keyFile, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600 });
    const withKey = ['--session-key-file', keyFile];
    const a = await startHttpServe(cli, config, withKey);
    const b = await startHttpServe(cli, config, withKey);
    const { client, transport } = await httpClient(a.url, clients);
    const session = transport.sessionId!;
    expect(session).toMatch(/^s1\./);
    expect(await client.callTool({ name: 'fx.echo', arguments: { text: 'on a' } })).toMatchObject({
      content: [{ type: 'text', text: 'on a' }],
    });
    expect(await echoOn(b.url, session, 'on b')).toEqual({ status: 200, text: 'on b' });

    // Every replica replaced: a new one with the same key takes the session up as well.
    for (const r of [a, b]) {
      r.proc.child.kill('SIGINT');
      await r.proc.exited;
    }
    const c = await startHttpServe(cli, config, withKey);
    // Its GET stream may land on a replica that never saw the session: taken up there too.
    const get = await sse(c.url, {
      headers: {
        Accept: 'text/event-stream',
        'mcp-session-id': session,
        'mcp-protocol-version': '2025-11-25',
      },
    });
    expect([get.status, get.headers['content-type']]).toEqual([200, 'text/event-stream']);
    get.close();
    expect(await echoOn(c.url, session, 'on c')).toEqual({ status: 200, text: 'on c' });

    // Another key, an altered id, and a replica without a key: 404, so the client initializes again.
    const otherKey = join(dir, 'other.key');
    writeFileSync(otherKey, randomBytes(32).toString('base64'), { mode: 0o600 });
    const d = await startHttpServe(cli, config, ['--session-key-file', otherKey]);
    expect((await echoOn(d.url, session, 'x')).status).toBe(404);
    const altered = `${session.slice(0, -2)}${session.endsWith('A') ? 'B' : 'A'}${session.slice(-1)}`;
    expect((await echoOn(c.url, altered, 'x')).status).toBe(404);
    const e = await startHttpServe(cli, config);
    expect((await echoOn(e.url, session, 'x')).status).toBe(404);
  }, 60_000);

  it('a sealed id presented with another token is not found, as on one replica', async () => {
    const dir = cli.tempDir();
    const [one, two] = [randomBytes(16).toString('hex'), randomBytes(16).toString('hex')];
    const config = writeFixtureConfig(
      dir,
      [{ id: 'fx' }],
      `serve:\n  sessionKey: "${randomBytes(32).toString('hex')}"\n  auth:\n    tokens: [{ token: "${one}" }, { token: "${two}" }]\n`,
    );
    const a = await startHttpServe(cli, config);
    const b = await startHttpServe(cli, config);
    const { transport } = await httpClient(a.url, clients, { headers: { Authorization: `Bearer ${one}` } });
    const session = transport.sessionId!;
    const call = (url: URL, token: string) =>
      raw(url, {
        method: 'POST',
        headers: {
          ...MCP_POST,
          Authorization: `Bearer ${token}`,
          'mcp-session-id': session,
          'mcp-protocol-version': '2025-11-25',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
      });
    expect((await call(b.url, one)).status).toBe(200);
    expect((await call(b.url, two)).status).toBe(404);
  }, 60_000);

  it("a 2026 input round handed out by one replica is answered on another; another token's retry is refused", async () => {
    const dir = cli.tempDir();
    const [one, two] = [randomBytes(16).toString('hex'), randomBytes(16).toString('hex')];
    const config = writeFixtureConfig(
      dir,
      [{ id: 'fx', flags: ['--input-required', '1'], extra: '    allow: [elicitation]' }],
      `serve:\n  sessionKey: "${randomBytes(32).toString('hex')}"\n  auth:\n    tokens: [{ token: "${one}" }, { token: "${two}" }]\n`,
    );
    const a = await startHttpServe(cli, config);
    const b = await startHttpServe(cli, config);
    const call = async (url: URL, token: string, extra: Record<string, unknown> = {}) => {
      const params = { name: 'fx.ask_first', arguments: { text: 'ship' }, _meta: ENVELOPE_2026, ...extra };
      const r = await raw(url, {
        method: 'POST',
        headers: {
          ...MCP_POST,
          Authorization: `Bearer ${token}`,
          'MCP-Protocol-Version': MODERN,
          'Mcp-Method': 'tools/call',
          'Mcp-Name': 'fx.ask_first',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params }),
      });
      const json = /^data: (.*)$/m.exec(r.body)?.[1] ?? r.body;
      return JSON.parse(json) as { result?: Record<string, unknown>; error?: Record<string, unknown> };
    };
    const round = await call(a.url, one);
    expect(round.result).toMatchObject({
      resultType: 'input_required',
      requestState: expect.stringMatching(/^r1\./),
    });
    const retry = {
      inputResponses: { confirm_1: { action: 'accept', content: { name: 'ada' } } },
      requestState: round.result?.requestState,
    };
    // Another token, on either replica: refused by serve, as the spec asks, before any server sees it.
    for (const url of [a.url, b.url])
      expect((await call(url, two, retry)).error).toMatchObject({
        code: -32602,
        data: { 'mcp-supervisor/code': 'REQUEST_STATE_REFUSED' },
      });
    // The same token on the other replica: the server gets its own state back and completes.
    expect((await call(b.url, one, retry)).result).toMatchObject({
      content: [{ type: 'text', text: expect.stringMatching(/^ship confirmed by ada after 1 rounds/) }],
    });
  }, 60_000);

  it('a task made on one replica is, on another, an error saying where it lives; a made-up one is unknown', async () => {
    const dir = cli.tempDir();
    const config = join(dir, 'fleet.yaml');
    writeFileSync(
      config,
      [
        'serve:',
        `  sessionKey: "${randomBytes(32).toString('hex')}"`,
        'servers:',
        `  jobs: { command: ${JSON.stringify(process.execPath)}, args: ${JSON.stringify([TASKS])} }`,
        '',
      ].join('\n'),
    );
    const a = await startHttpServe(cli, config);
    const b = await startHttpServe(cli, config);
    const made = await postModern(a.url, 'tools/call', {
      name: 'jobs.slow_compute',
      arguments: { seconds: 0.3 },
    });
    const taskId = made.result?.taskId as string;
    expect(taskId).toMatch(/^jobs\./);
    for (const method of ['tasks/get', 'tasks/cancel'])
      expect((await postModern(b.url, method, { taskId })).error).toMatchObject({
        code: -32602,
        message: expect.stringContaining('was made by another replica'),
        data: { 'mcp-supervisor/code': 'TASK_ELSEWHERE' },
      });
    const madeUp = `jobs.${taskId.slice(5, 13)}AAAAAAAA${taskId.slice(21)}`;
    expect((await postModern(b.url, 'tasks/get', { taskId: madeUp })).error).toMatchObject({
      code: -32602,
      data: { 'mcp-supervisor/code': 'UNKNOWN_TASK' },
    });
    // On its own replica it is there.
    expect((await postModern(a.url, 'tasks/get', { taskId })).result).toMatchObject({ taskId });
  }, 60_000);

  it('a key that is not 32 bytes is a located config error', async () => {
    const dir = cli.tempDir();
    const config = writeFixtureConfig(dir, [{ id: 'fx' }], 'serve:\n  sessionKey: "too-short"\n');
    const r = await cli.runCli(['check', config]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /fleet\.yaml:2:\d+ serve\.sessionKey: expected 32 random bytes, as 64 hex digits or base64/,
    );
  });
});
