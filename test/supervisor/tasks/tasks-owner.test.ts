import { afterEach, describe, expect, it } from 'vitest';
import { liveGroups } from '../../../src/process/ledger.js';
import { eventually, fleetConfig, fleets, jobsServer } from '../fleet.js';

// MCP binds a task to the authorization context it was made in: another context must not reach it, list it or
// hear of it. A 2025-11-25 server of our own whose tasks end after a given time and announce their status.

const f = fleets();
afterEach(async () => {
  await f.reap();
  expect(liveGroups()).toEqual([]);
});

async function fleet() {
  const made = f.create(fleetConfig([jobsServer()]), { declareTaskQuestions: true });
  await made.sup.start();
  await eventually(() => made.sup.getTool('jobs.slow_compute') !== undefined, 10_000, 'the tools');
  return made.sup;
}

describe('a task bound to an owner', () => {
  it('is reached, listed and heard of by its owner alone', async () => {
    const sup = await fleet();
    const heard: Array<{ taskId: unknown; status: unknown; owner: string | undefined }> = [];
    const off = sup.onTaskStatus((p, owner) => heard.push({ taskId: p.taskId, status: p.status, owner }));
    const mine = await sup.callToolAsTask(
      'jobs.slow_compute',
      { seconds: 0.3, label: 'a' },
      {},
      { taskOwner: 'alice' },
    );
    if (!mine.ok) throw new Error(mine.message);
    const taskId = (mine.result.task as { taskId: string }).taskId;
    const open = await sup.callToolAsTask('jobs.slow_compute', { seconds: 0.3, label: 'b' }, {});
    if (!open.ok) throw new Error(open.message);
    const openId = (open.result.task as { taskId: string }).taskId;

    for (const owner of [undefined, 'bob']) {
      const whose = owner === undefined ? {} : { owner };
      for (const method of ['tasks/get', 'tasks/result', 'tasks/cancel'] as const)
        expect(await sup.taskRequest(method, taskId, whose)).toMatchObject({
          ok: false,
          code: 'UNKNOWN_TASK',
        });
      expect(sup.taskEra(taskId, whose)).toBeUndefined();
      expect(sup.taskQuestions(taskId, whose)).toEqual({});
      expect(sup.answerTaskQuestions(taskId, { any: {} }, whose)).toBe(0);
    }
    const theirs = await sup.listTasks({ owner: 'bob' });
    expect(theirs.ok && theirs.result.tasks).toEqual([]);
    const unowned = await sup.listTasks();
    expect(unowned.ok && unowned.result.tasks.map((t) => t.taskId)).toEqual([openId]);
    const alices = await sup.listTasks({ owner: 'alice' });
    expect(alices.ok && alices.result.tasks.map((t) => t.taskId)).toEqual([taskId]);

    expect(sup.taskEra(taskId, { owner: 'alice' })).toBe('legacy');
    const result = await sup.taskRequest('tasks/result', taskId, { owner: 'alice' });
    expect(result).toMatchObject({ ok: true, result: { content: [{ type: 'text', text: 'computed a' }] } });
    // The status each task announced carries the owner it is bound to, for the listener to tell that owner alone.
    await eventually(
      () => heard.some((h) => h.taskId === openId && h.status === 'completed'),
      10_000,
      'the other task to end',
    );
    off();
    expect(heard.filter((h) => h.taskId === taskId).map((h) => h.owner)).toContain('alice');
    expect(new Set(heard.filter((h) => h.taskId === taskId).map((h) => h.owner))).toEqual(new Set(['alice']));
    expect(new Set(heard.filter((h) => h.taskId === openId).map((h) => h.owner))).toEqual(
      new Set([undefined]),
    );
  });

  it('refuses an owner that is not a string as INVALID_CALL', async () => {
    const sup = await fleet();
    const out = await sup.callToolAsTask(
      'jobs.slow_compute',
      { seconds: 0 },
      {},
      {
        taskOwner: 7 as unknown as string,
      },
    );
    expect(out).toMatchObject({ ok: false, code: 'INVALID_CALL' });
    expect(out.ok ? '' : out.message).toContain('taskOwner must be a string');
  });
});
