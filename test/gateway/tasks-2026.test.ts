import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliProcesses, ensureBuilt, ROOT } from '../cli/helpers.js';
import { type HttpServe, MCP_POST, sse, startHttpServe } from './http/helpers.js';
import { type ModernAnswer, postModern } from './serve-2026-helpers.js';
import { until as waitFor } from './serve-helpers.js';

// serve --http over a 2025 server whose tools run as tasks, spoken to by a 2026 client through the tasks
// extension (SEP-2663): flat task results, tasks/get with the result or error inlined, gated by the extension.
const cli = cliProcesses();
let serve: HttpServe;
const TASKS = join(ROOT, 'test', 'fixtures', 'tasks-server.mjs');
const MODERN_TASKS = join(ROOT, 'test', 'fixtures', 'tasks-modern-server.mjs');
const MODERN = '2026-07-28';
const EXT = 'io.modelcontextprotocol/tasks';

beforeAll(async () => {
  await ensureBuilt();
  const config = join(cli.tempDir(), 'fleet.yaml');
  const args = JSON.stringify([TASKS]);
  writeFileSync(
    config,
    [
      'servers:',
      `  jobs: { command: ${JSON.stringify(process.execPath)}, args: ${args}, namespace: false, allow: [elicitation] }`,
      // Not allowed to ask: it is never told it may, and its task that would ask fails.
      `  closed: { command: ${JSON.stringify(process.execPath)}, args: ${args} }`,
      // A 2026 server with the tasks extension of its own.
      `  own: { command: ${JSON.stringify(process.execPath)}, args: ${JSON.stringify([MODERN_TASKS])} }`,
      '',
    ].join('\n'),
  );
  serve = await startHttpServe(cli, config);
}, 60_000);

afterAll(() => cli.reap());

type Answer = ModernAnswer;

/** One 2026 request, declaring the tasks extension or not; its JSON-RPC answer. */
const post = (method: string, params: Record<string, unknown>, tasks = true): Promise<Answer> =>
  postModern(serve.url, method, params, { tasks });

/** Polls tasks/get until it shows `status` (or the task ended). */
async function until(taskId: string, status: string, keys = 1): Promise<Record<string, unknown>> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const got = (await post('tasks/get', { taskId })).result!;
    const asked = Object.keys((got.inputRequests as object | undefined) ?? {}).length;
    if (
      (got.status === status && (status !== 'input_required' || asked >= keys)) ||
      ENDED.has(String(got.status))
    )
      return got;
    if (Date.now() > deadline) throw new Error(`task ${taskId} still ${String(got.status)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const ENDED = new Set(['completed', 'failed', 'cancelled']);
const yes = (name: string) => ({ action: 'accept', content: { confirm: true, name } });

/** Polls tasks/get until the task has ended (each poll a fresh POST, as a stateless client does). */
async function ended(taskId: string): Promise<Record<string, unknown>> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const got = await post('tasks/get', { taskId });
    const status = got.result?.status;
    if (status === 'completed' || status === 'failed' || status === 'cancelled') return got.result!;
    if (Date.now() > deadline) throw new Error(`task ${taskId} still ${String(status)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('the 2026 tasks extension through serve --http', () => {
  it('is offered in server/discover under capabilities.extensions, not as the 2025 tasks capability', async () => {
    const found = await post('server/discover', {});
    const caps = found.result?.capabilities as Record<string, unknown>;
    expect(caps.extensions).toEqual({ [EXT]: {} });
    expect(caps.tasks).toBeUndefined();
  }, 60_000);

  it('makes a task of a task-supporting tool for a declaring client, and inlines its result once completed', async () => {
    const created = await post('tools/call', {
      name: 'slow_compute',
      arguments: { seconds: 0.3, label: 'x' },
    });
    expect(created.result).toMatchObject({ resultType: 'task', status: 'working', ttlMs: 60_000 });
    expect(created.result).not.toHaveProperty('task');
    expect(created.result).not.toHaveProperty('ttl');
    const taskId = created.result!.taskId as string;
    expect(taskId).toMatch(/^jobs/);
    const done = await ended(taskId);
    expect(done).toMatchObject({ resultType: 'complete', taskId, status: 'completed' });
    expect(done.result).toEqual({ content: [{ type: 'text', text: 'computed x' }] });
    // A tool error is a completed task with isError; a JSON-RPC error is a failed one, with the error inlined.
    const failing = await post('tools/call', { name: 'failing_job', arguments: {} });
    expect(await ended(failing.result!.taskId as string)).toMatchObject({
      status: 'completed',
      result: { isError: true },
    });
    const crashing = await post('tools/call', { name: 'protocol_error_job', arguments: {} });
    const crashed = await ended(crashing.result!.taskId as string);
    expect(crashed).toMatchObject({ status: 'failed', error: { code: -32603 } });
    expect(crashed).not.toHaveProperty('result');
  }, 60_000);

  it('cancels with an empty ack, again once the task ended; an unknown task is -32602', async () => {
    const created = await post('tools/call', { name: 'slow_compute', arguments: { seconds: 60 } });
    const taskId = created.result!.taskId as string;
    expect((await post('tasks/cancel', { taskId })).result).toEqual({ resultType: 'complete' });
    expect((await ended(taskId)).status).toBe('cancelled');
    expect((await post('tasks/cancel', { taskId })).result).toEqual({ resultType: 'complete' });
    expect((await post('tasks/update', { taskId, inputResponses: {} })).result).toEqual({
      resultType: 'complete',
    });
    expect((await post('tasks/get', { taskId: 'jobs.nope' })).error?.code).toBe(-32602);
    expect((await post('tasks/result', { taskId })).error?.code).toBe(-32601);
  }, 60_000);

  it("surfaces a task's questions as inputRequests and answers them with tasks/update, one key at a time", async () => {
    const one = await post('tools/call', { name: 'confirm_delete', arguments: { filename: 'c.txt' } });
    const taskId = one.result!.taskId as string;
    const asking = await until(taskId, 'input_required');
    expect(asking.status).toBe('input_required');
    const [key, request] = Object.entries(
      asking.inputRequests as Record<string, { method: string; params: object }>,
    )[0]!;
    expect(request).toMatchObject({ method: 'elicitation/create', params: { message: 'Delete c.txt?' } });
    expect((await post('tasks/update', { taskId, inputResponses: { [key]: yes('c') } })).result).toEqual({
      resultType: 'complete',
    });
    expect(await ended(taskId)).toMatchObject({
      status: 'completed',
      result: { content: [{ text: 'deleted c.txt' }] },
    });

    const two = await post('tools/call', { name: 'multi_input', arguments: {} });
    const multi = two.result!.taskId as string;
    const both = Object.keys((await until(multi, 'input_required', 2)).inputRequests as object);
    expect(both).toHaveLength(2);
    await post('tasks/update', { taskId: multi, inputResponses: { [both[0]!]: yes('first') } });
    const left = await post('tasks/get', { taskId: multi });
    expect(left.result).toMatchObject({ status: 'input_required' });
    expect(Object.keys(left.result!.inputRequests as object)).toEqual([both[1]]);
    await post('tasks/update', { taskId: multi, inputResponses: { [both[1]!]: yes('second') } });
    expect(await ended(multi)).toMatchObject({
      result: { content: [{ text: 'answered "first" and "second"' }] },
    });
  }, 60_000);

  it("passes a 2026 server's own tasks through: its input round, then its task under the fleet's id", async () => {
    const tool = 'own.test_tool_with_task';
    const round = await post('tools/call', { name: tool, arguments: {} });
    expect(round.result).toMatchObject({
      resultType: 'input_required',
      requestState: expect.stringMatching(/^r1\./),
    });
    expect(round.result).not.toHaveProperty('taskId');
    const retry = {
      name: tool,
      arguments: {},
      inputResponses: { user_name: { action: 'accept', content: { name: 'Ada' } } },
      // As serve sealed it: serve opens it again on the way to the server.
      requestState: round.result!.requestState as string,
    };
    // Without the extension the server cannot answer as a task: its −32021 is the client's.
    expect((await post('tools/call', retry, false)).error?.code).toBe(-32021);
    const created = await post('tools/call', retry);
    expect(created.result).toMatchObject({ resultType: 'task', status: 'working', ttlMs: 60_000 });
    const taskId = created.result!.taskId as string;
    expect(taskId).toMatch(/^own\./);
    expect(await ended(taskId)).toMatchObject({
      taskId,
      status: 'completed',
      result: { content: [{ type: 'text', text: 'Hello, Ada!' }] },
    });
    // The answers of a tasks/update reach the server that owns the task (it names them in its statusMessage).
    const update = { taskId, inputResponses: { later: { action: 'accept', content: {} } } };
    expect((await post('tasks/update', update)).result).toEqual({ resultType: 'complete' });
    expect((await post('tasks/get', { taskId })).result).toMatchObject({ statusMessage: 'answered: later' });
    expect((await post('tasks/cancel', { taskId })).result).toEqual({ resultType: 'complete' });
  }, 60_000);

  it('never lets a server not allowed to ask do so: its task that would ask fails', async () => {
    const created = await post(
      'tools/call',
      { name: 'closed.confirm_delete', arguments: { filename: 'd.txt' } },
      true,
    );
    expect(await ended(created.result!.taskId as string)).toMatchObject({
      status: 'failed',
      error: { message: 'the client does not support elicitation' },
    });
  }, 60_000);

  it('without the extension: a sync result, -32021 for a tool that only runs as a task and for tasks/*', async () => {
    const sync = await post(
      'tools/call',
      { name: 'slow_compute', arguments: { seconds: 0, label: 'now' } },
      false,
    );
    expect(sync.result).toMatchObject({ resultType: 'complete', content: [{ text: 'computed now' }] });
    const required = await post('tools/call', { name: 'failing_job', arguments: {} }, false);
    expect(required.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: { [EXT]: {} } } },
    });
    for (const method of ['tasks/get', 'tasks/cancel', 'tasks/update'])
      expect((await post(method, { taskId: 'jobs.any' }, false)).error?.code).toBe(-32021);
    // A legacy `task` hint never makes a task of a sync tool, nor fails it.
    const hinted = await post('tools/call', { name: 'greet', arguments: { name: 'a' }, task: { ttl: 1000 } });
    expect(hinted.result).toMatchObject({ resultType: 'complete', content: [{ text: 'Hello, a!' }] });
  });

  it('tells a listening client of its tasks with notifications/tasks, each change once, the result inlined at the end', async () => {
    const created = await post('tools/call', {
      name: 'slow_compute',
      arguments: { seconds: 0.4, label: 'w' },
    });
    const taskId = created.result!.taskId as string;
    const meta = (tasks: boolean) => ({
      'io.modelcontextprotocol/protocolVersion': MODERN,
      'io.modelcontextprotocol/clientCapabilities': tasks ? { extensions: { [EXT]: {} } } : {},
      'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
    });
    const listen = (tasks: boolean, id: number) =>
      sse(serve.url, {
        method: 'POST',
        headers: { ...MCP_POST, 'MCP-Protocol-Version': MODERN, 'Mcp-Method': 'subscriptions/listen' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id,
          method: 'subscriptions/listen',
          params: { notifications: { taskIds: [taskId, 'jobs.unknown'] }, _meta: meta(tasks) },
        }),
      });
    const stream = await listen(true, 41);
    try {
      type Message = { method?: string; params: Record<string, unknown> };
      const messages = () => stream.events.map((e) => JSON.parse(e.data) as Message);
      const last = await waitFor(
        () => messages().find((m) => m.method === 'notifications/tasks' && m.params.status === 'completed'),
        15_000,
        'the completed task on the listen stream',
      );
      const [ack] = messages();
      expect(ack).toMatchObject({
        method: 'notifications/subscriptions/acknowledged',
        params: { notifications: { taskIds: [taskId] } },
      });
      expect(last.params).toMatchObject({
        taskId,
        status: 'completed',
        result: { content: [{ type: 'text', text: 'computed w' }] },
        _meta: { 'io.modelcontextprotocol/subscriptionId': 41 },
      });
      expect(last.params).not.toHaveProperty('resultType');
      const told = messages().filter((m) => m.method === 'notifications/tasks');
      expect(told.every((m) => m.params.taskId === taskId)).toBe(true);
      // each state once: no two notifications in a row tell the same status
      const statuses = told.map((m) => m.params.status);
      expect(statuses.filter((x, i) => x === statuses[i - 1])).toEqual([]);
    } finally {
      stream.close();
    }
    // Asking for task notifications without the extension is refused as the extension says.
    const refused = await listen(false, 42);
    try {
      expect(refused.status).toBe(400);
    } finally {
      refused.close();
    }
  }, 60_000);
});
