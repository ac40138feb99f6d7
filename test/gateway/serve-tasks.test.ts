import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  CallToolResultSchema,
  CreateTaskResultSchema,
  GetTaskResultSchema,
  ListTasksResultSchema,
  McpError,
  TaskStatusNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { writeFixtureConfig } from '../cli/helpers.js';
import { connect, directEverything, EVERYTHING, serveClients, until } from './serve-helpers.js';

const { cli, clients } = serveClients();

/** server-everything's tool that runs only as a task (four stages of a second each). */
const RESEARCH = 'simulate-research-query';
const RELATED = 'io.modelcontextprotocol/related-task';

/** A fleet of server-everything (`ev`) alone, with room for a task's four seconds. */
function writeEverything(dir: string): string {
  const config = join(dir, 'fleet.yaml');
  writeFileSync(
    config,
    [
      'servers:',
      '  ev:',
      `    command: ${JSON.stringify(process.execPath)}`,
      `    args: [${JSON.stringify(EVERYTHING)}, "stdio"]`,
      '    timeouts: { startup: 20s, call: 20s, shutdown: 2s }',
      '',
    ].join('\n'),
  );
  return config;
}

/** Runs the research tool as a task on a client: the created task, and its result once done. */
async function research(client: Client, name: string) {
  const created = await client.request(
    { method: 'tools/call', params: { name, arguments: { topic: 'owls' }, task: { ttl: 60_000 } } },
    CreateTaskResultSchema,
  );
  const result = await client.request(
    { method: 'tasks/result', params: { taskId: created.task.taskId } },
    CallToolResultSchema,
    { timeout: 20_000 },
  );
  return { created, result };
}

async function rejection(p: Promise<unknown>): Promise<McpError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(McpError);
  return err as McpError;
}

function codeOf(e: McpError): unknown {
  return (e.data as Record<string, unknown> | undefined)?.['mcp-supervisor/code'];
}

/** The pids of the processes `serve` (pid) spawned. */
function childrenOf(pid: number): number[] {
  return readdirSync(`/proc/${pid}/task`).flatMap((t) =>
    readFileSync(`/proc/${pid}/task/${t}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
  );
}

describe('serve: tasks', () => {
  it('runs a task-only tool as a task through serve, as server-everything does directly', async () => {
    const config = writeEverything(cli.tempDir());
    const statuses: Array<{ taskId: string; status: string }> = [];
    const client = await connect(cli, clients, config, undefined, (c) =>
      c.setNotificationHandler(TaskStatusNotificationSchema, async (n) => {
        statuses.push(n.params);
      }),
    );
    expect(client.getServerCapabilities()?.tasks).toEqual({
      list: {},
      cancel: {},
      requests: { tools: { call: {} } },
    });
    const { tools } = await client.listTools();
    expect(tools.find((t) => t.name === `ev.${RESEARCH}`)?.execution).toEqual({ taskSupport: 'required' });

    const [through, alone] = await Promise.all([
      research(client, `ev.${RESEARCH}`),
      directEverything(cli, clients).then((d) => research(d, RESEARCH)),
    ]);
    const taskId = through.created.task.taskId;
    // The server's own id under the fleet's prefix (ids are the server's to pick, so they differ run to run).
    expect(taskId).toMatch(/^ev\./);
    expect(through.created.task.status).toBe(alone.created.task.status);
    expect(through.result.content).toEqual(alone.result.content);
    expect(through.result._meta?.[RELATED]).toEqual({ taskId });

    const got = await client.request({ method: 'tasks/get', params: { taskId } }, GetTaskResultSchema);
    expect(got).toMatchObject({ taskId, status: 'completed' });
    const { tasks } = await client.request({ method: 'tasks/list', params: {} }, ListTasksResultSchema);
    expect(tasks.map((t) => t.taskId)).toContain(taskId);
    await until(
      () => statuses.some((s) => s.status === 'completed') || undefined,
      5000,
      'the completed status',
    );
    expect(statuses.every((s) => s.taskId === taskId)).toBe(true);

    // Called plainly, the tool is refused before the server sees it, with the −32601 MCP asks for.
    const plain = await rejection(
      client.request(
        { method: 'tools/call', params: { name: `ev.${RESEARCH}`, arguments: { topic: 'owls' } } },
        CallToolResultSchema,
      ),
    );
    expect(plain.code).toBe(-32601);
    expect(plain.message).toContain("execution.taskSupport is 'required'");
    expect(plain.data).toMatchObject({ 'mcp-supervisor/code': 'TASK_REQUIRED' });

    const unknown = await rejection(
      client.request({ method: 'tasks/get', params: { taskId: 'ev.nope' } }, GetTaskResultSchema),
    );
    expect(unknown.code).toBe(-32602);
    expect(unknown.data).toMatchObject({ 'mcp-supervisor/code': 'UNKNOWN_TASK' });
  });

  it('fails the tasks of a server that died with a clear error, not a lookup at its next run', async () => {
    const config = writeEverything(cli.tempDir());
    const statuses: Array<{ taskId: string; status: string; statusMessage?: string | undefined }> = [];
    const client = await connect(cli, clients, config, undefined, (c) =>
      c.setNotificationHandler(TaskStatusNotificationSchema, async (n) => {
        statuses.push(n.params);
      }),
    );
    const created = await client.request(
      { method: 'tools/call', params: { name: `ev.${RESEARCH}`, arguments: { topic: 'owls' }, task: {} } },
      CreateTaskResultSchema,
    );
    const { taskId } = created.task;
    const serve = (client.transport as StdioClientTransport | undefined)?.pid;
    if (!serve) throw new Error('no serve pid');
    const [ev] = childrenOf(serve);
    if (ev === undefined) throw new Error('server-everything is not a child of serve');
    process.kill(ev, 'SIGKILL');
    // Answered as usual until the supervisor has seen the exit (a request caught by the exit itself is
    // SERVER_EXITED); from then on the task is lost, whether the server is back yet or not.
    const err = await until(
      () =>
        client.request({ method: 'tasks/get', params: { taskId } }, GetTaskResultSchema).then(
          () => undefined,
          (e: McpError) => (codeOf(e) === 'SERVER_EXITED' ? undefined : e),
        ),
      10_000,
      'tasks/get to fail once the server is gone',
    );
    expect(err?.code).toBe(-32602);
    expect(err?.message).toContain(`task '${taskId}' is lost: server 'ev' restarted or stopped`);
    expect(err?.data).toMatchObject({ 'mcp-supervisor/code': 'TASK_LOST', server: 'ev' });
    const result = await rejection(
      client.request({ method: 'tasks/result', params: { taskId } }, CallToolResultSchema),
    );
    expect(result.data).toMatchObject({ 'mcp-supervisor/code': 'TASK_LOST' });
    // A client waiting on status notifications hears the loss too.
    const failed = await until(
      () => statuses.find((s) => s.taskId === taskId && s.status === 'failed'),
      5000,
      'the failed status',
    );
    expect(failed.statusMessage).toBe("server 'ev' exited: the task is lost");
  });

  it('pages tasks/list across the fleet, and answers a cursor it did not hand out with −32602', async () => {
    const tasks = ['--tasks', '3', '--page-size', '2'];
    const config = writeFixtureConfig(cli.tempDir(), [
      { id: 'a', flags: tasks },
      { id: 'b', flags: tasks },
    ]);
    const client = await connect(cli, clients, config);
    const pages: string[][] = [];
    let cursor: string | undefined;
    do {
      const page = await client.request(
        { method: 'tasks/list', params: cursor !== undefined ? { cursor } : {} },
        ListTasksResultSchema,
      );
      pages.push(page.tasks.map((t) => t.taskId));
      cursor = page.nextCursor;
    } while (cursor !== undefined && pages.length < 10);
    // The fixture numbers its tasks; the fleet hands out ids of its own, `<server>.<random UUID>`.
    const uuid = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
    expect(pages.map((p) => p.length)).toEqual([2, 1, 2, 1]);
    expect(pages.map((p) => p.every((id) => new RegExp(`^${id[0]}\\.${uuid}$`).test(id)))).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(pages.map((p) => p[0]![0])).toEqual(['a', 'a', 'b', 'b']);
    expect(new Set(pages.flat()).size).toBe(6);
    const bad = await rejection(
      client.request({ method: 'tasks/list', params: { cursor: 'not a cursor' } }, ListTasksResultSchema),
    );
    expect(bad.code).toBe(-32602);
    expect(bad.data).toMatchObject({ 'mcp-supervisor/code': 'INVALID_CURSOR' });
  });

  it('declares no tasks when no server of the fleet does', async () => {
    const config = writeFixtureConfig(cli.tempDir(), [{ id: 'fx' }]);
    const client = await connect(cli, clients, config);
    expect(client.getServerCapabilities()?.tasks).toBeUndefined();
    expect(client.getServerCapabilities()?.tools).toBeDefined();
  });
});
