import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliProcesses, ensureBuilt, ROOT } from '../../cli/helpers.js';
import { postModern } from '../serve-2026-helpers.js';
import { type HttpServe, MCP_POST, raw, startHttpServe } from './helpers.js';

// MCP binds a task to the authorization context it was made in: through `serve --http` with two tokens, a task
// made with one is, to the other, a task that does not exist — in a 2025 session and on the 2026 path alike.
const cli = cliProcesses();
let serve: HttpServe;
const TASKS = join(ROOT, 'test', 'fixtures', 'tasks-server.mjs');
const A = 'token-a-0123456789abcdef';
const B = 'token-b-0123456789abcdef';

beforeAll(async () => {
  await ensureBuilt();
  const config = join(cli.tempDir(), 'fleet.yaml');
  writeFileSync(
    config,
    [
      'serve:',
      `  auth: { tokens: [ { token: ${JSON.stringify(A)} }, { token: ${JSON.stringify(B)} } ] }`,
      'servers:',
      `  jobs: { command: ${JSON.stringify(process.execPath)}, args: ${JSON.stringify([TASKS])} }`,
      '',
    ].join('\n'),
  );
  serve = await startHttpServe(cli, config, ['--json-response']);
}, 60_000);

afterAll(() => cli.reap());

interface Answer {
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

/** A 2025 session of `token`: initialized, then each request a POST answered with JSON. */
async function session(
  token: string,
): Promise<(method: string, params: Record<string, unknown>) => Promise<Answer>> {
  const headers = { ...MCP_POST, Authorization: `Bearer ${token}` };
  const init = await raw(serve.url, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    }),
  });
  expect(init.status).toBe(200);
  const withSession = {
    ...headers,
    'mcp-session-id': String(init.headers['mcp-session-id']),
    'mcp-protocol-version': '2025-11-25',
  };
  const note = await raw(serve.url, {
    method: 'POST',
    headers: withSession,
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  expect(note.status).toBe(202);
  let id = 0;
  return async (method, params) => {
    const res = await raw(serve.url, {
      method: 'POST',
      headers: withSession,
      body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
    });
    return JSON.parse(res.body) as Answer;
  };
}

/** One 2026 request of `token`, declaring the tasks extension. */
const modern = (token: string, method: string, params: Record<string, unknown>) =>
  postModern(serve.url, method, params, { headers: { Authorization: `Bearer ${token}` } });

describe('a task through serve --http', () => {
  it('made in a 2025 session is reached and listed with its own token alone', async () => {
    const a = await session(A);
    const b = await session(B);
    const made = await a('tools/call', {
      name: 'jobs.slow_compute',
      arguments: { seconds: 0.5, label: 'a' },
      task: { ttl: 60_000 },
    });
    const taskId = (made.result?.task as { taskId?: string } | undefined)?.taskId;
    expect(taskId).toMatch(/^jobs\./);
    for (const method of ['tasks/get', 'tasks/result', 'tasks/cancel'])
      expect((await b(method, { taskId })).error).toMatchObject({ code: -32602 });
    expect((await b('tasks/list', {})).result?.tasks).toEqual([]);
    // The 2026 path of the other token does not reach it either.
    expect((await modern(B, 'tasks/get', { taskId })).error).toMatchObject({ code: -32602 });
    expect((await modern(B, 'tasks/update', { taskId, inputResponses: {} })).error).toMatchObject({
      code: -32602,
    });

    const listed = (await a('tasks/list', {})).result?.tasks as Array<{ taskId: string }>;
    expect(listed.map((t) => t.taskId)).toEqual([taskId]);
    // Untouched by the other token's cancel, it ends with its result.
    const result = await a('tasks/result', { taskId });
    expect(result.result?.content).toEqual([{ type: 'text', text: 'computed a' }]);
  }, 30_000);

  it('made on the 2026 path is polled with its own token alone', async () => {
    const made = await modern(A, 'tools/call', { name: 'jobs.slow_compute', arguments: { seconds: 0.3 } });
    expect(made.result).toMatchObject({ resultType: 'task' });
    const taskId = made.result?.taskId as string;
    expect((await modern(B, 'tasks/get', { taskId })).error).toMatchObject({ code: -32602 });
    expect((await modern(B, 'tasks/cancel', { taskId })).error).toMatchObject({ code: -32602 });
    const deadline = Date.now() + 15_000;
    for (;;) {
      const got = (await modern(A, 'tasks/get', { taskId })).result;
      if (got?.status === 'completed') {
        expect(got.result).toMatchObject({ content: [{ type: 'text', text: 'computed' }] });
        break;
      }
      expect(got?.status).toBe('working');
      if (Date.now() > deadline) throw new Error(`task ${taskId} did not complete`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }, 30_000);
});
