import { createRequire } from 'node:module';
import { afterEach, describe, expect, it } from 'vitest';
import { liveGroups } from '../../../src/process/ledger.js';
import { eventually, fixtureServer, fleetConfig, fleets } from '../fleet.js';

const EVERYTHING = createRequire(import.meta.url).resolve(
  '@modelcontextprotocol/server-everything/dist/index.js',
);
const SLOW = { startupMs: 15_000, callMs: 15_000, shutdownMs: 1000 };
/** server-everything's tool that runs only as a task (four stages of a second each). */
const RESEARCH = 'ev.simulate-research-query';

const f = fleets();
afterEach(async () => {
  await f.reap();
  expect(liveGroups()).toEqual([]);
});

async function fleetWithEverything() {
  const made = f.create(
    fleetConfig([
      fixtureServer('ev', [], { args: [EVERYTHING, 'stdio'], timeouts: SLOW }),
      fixtureServer('fx'),
    ]),
  );
  await made.sup.start();
  await eventually(() => made.sup.listTools().some((t) => t.name === RESEARCH), 10_000, 'the tools of ev');
  return made;
}

describe('tasks across the fleet', () => {
  it('keeps execution.taskSupport and refuses a plain call of a task-only tool with TASK_REQUIRED', async () => {
    const { sup } = await fleetWithEverything();
    const tool = sup.listTools().find((t) => t.name === RESEARCH);
    expect(tool?.definition?.execution).toEqual({ taskSupport: 'required' });
    expect(sup.getTool(RESEARCH)).toEqual(tool);
    expect(sup.getTool('ev.no-such-tool')).toBeUndefined();
    const out = await sup.callToolOutcome(RESEARCH, { topic: 'owls' });
    expect(out).toMatchObject({ ok: false, code: 'TASK_REQUIRED', server: 'ev', tool: RESEARCH });
    expect(out.ok ? '' : out.message).toContain("execution.taskSupport is 'required'");
    expect(await sup.callTool(RESEARCH, { topic: 'owls' })).toMatch(/^ERROR: .*runs only as a task/);
  });

  it('runs a task-only tool as a task: created, listed, polled and its result fetched under the fleet id', async () => {
    const { sup } = await fleetWithEverything();
    const statuses: Record<string, unknown>[] = [];
    const off = sup.onTaskStatus((p) => statuses.push(p));
    const created = await sup.callToolAsTask(RESEARCH, { topic: 'owls' }, { ttl: 60_000 });
    if (!created.ok) throw new Error(created.message);
    const task = created.result.task as { taskId: string; status: string };
    expect(task.taskId).toMatch(/^ev\./);
    expect(task.status).toBe('working');
    const listed = await sup.listTasks();
    expect(listed.ok && listed.result.tasks.map((t) => t.taskId)).toContain(task.taskId);
    const got = await sup.taskRequest('tasks/get', task.taskId);
    expect(got).toMatchObject({ ok: true, server: 'ev', result: { taskId: task.taskId } });
    const result = await sup.taskRequest('tasks/result', task.taskId);
    if (!result.ok) throw new Error(result.message);
    const text = (result.result.content as Array<{ text?: string }>).map((b) => b.text).join('');
    expect(text).toContain('owls');
    const done = await sup.taskRequest('tasks/get', task.taskId);
    expect(done).toMatchObject({ ok: true, result: { taskId: task.taskId, status: 'completed' } });
    // Each status the server announced reached the listener under the fleet's id, the last one included.
    await eventually(() => statuses.some((s) => s.status === 'completed'), 5000, 'the completed status');
    expect(statuses.every((s) => s.taskId === task.taskId)).toBe(true);
    expect(statuses.map((s) => s.statusMessage)).toContain('Gathering sources...');
    off();
    expect(await sup.taskRequest('tasks/get', 'ev.no-such-task')).toMatchObject({
      ok: false,
      code: 'UNKNOWN_TASK',
    });
  });

  it("caps a task's result like a plain call's, by the caller's maxResultBytes", async () => {
    const { sup } = await fleetWithEverything();
    const created = await sup.callToolAsTask(RESEARCH, { topic: 'owls' }, { ttl: 60_000 });
    if (!created.ok) throw new Error(created.message);
    const { taskId } = created.result.task as { taskId: string };
    const whole = await sup.taskRequest('tasks/result', taskId);
    if (!whole.ok) throw new Error(whole.message);
    const wholeText = (whole.result.content as Array<{ text?: string }>).map((b) => b.text ?? '').join('');
    expect(Buffer.byteLength(wholeText)).toBeGreaterThan(256);
    const capped = await sup.taskRequest('tasks/result', taskId, { maxResultBytes: 256 });
    if (!capped.ok) throw new Error(capped.message);
    const text = (capped.result.content as Array<{ text?: string }>).map((b) => b.text ?? '').join('');
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(256);
    expect(text).toMatch(/truncated \d+ bytes/);
  });

  it("fails a restarted server's tasks with TASK_LOST, naming the server", async () => {
    const { sup } = await fleetWithEverything();
    const created = await sup.callToolAsTask(RESEARCH, { topic: 'owls' }, { ttl: 60_000 });
    if (!created.ok) throw new Error(created.message);
    const { taskId } = created.result.task as { taskId: string };
    const statuses: Record<string, unknown>[] = [];
    sup.onTaskStatus((p) => statuses.push(p));
    const before = sup.status().find((s) => s.id === 'ev')?.pid;
    expect(sup.restart('ev')).toMatchObject({ ok: true });
    await eventually(
      () => {
        const row = sup.status().find((s) => s.id === 'ev');
        return row?.state === 'ready' && row.pid !== before;
      },
      15_000,
      'ev ready again in a new process',
    );
    for (const method of ['tasks/get', 'tasks/result', 'tasks/cancel'] as const) {
      const out = await sup.taskRequest(method, taskId);
      expect(out).toMatchObject({ ok: false, code: 'TASK_LOST', server: 'ev' });
      expect(out.ok ? '' : out.message).toContain("server 'ev' restarted");
    }
    // The run's end was announced as the task's failure, once.
    const failed = statuses.filter((s) => s.status === 'failed');
    expect(failed).toEqual([
      expect.objectContaining({
        taskId,
        status: 'failed',
        statusMessage: "server 'ev' exited: the task is lost",
      }),
    ]);
  });
});
