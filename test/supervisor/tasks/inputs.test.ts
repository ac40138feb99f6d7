import { afterEach, describe, expect, it } from 'vitest';
import { liveGroups } from '../../../src/process/ledger.js';
import type { ServerRequest } from '../../../src/supervisor/runtime/client-side.js';
import { MAX_QUESTIONS_PER_TASK, TaskInputs } from '../../../src/supervisor/tasks/inputs.js';
import { eventually, fleetConfig, fleets, jobsServer } from '../fleet.js';

// A 2025-11-25 server whose task asks a question (elicitation/create, sent while tasks/result is open): held for
// the caller that polls for it when the call asked for that, else answered by the host's handler as ever.

const f = fleets();
afterEach(async () => {
  await f.reap();
  expect(liveGroups()).toEqual([]);
});

async function fleet(onElicitation?: (r: ServerRequest) => Promise<unknown>) {
  const made = f.create(
    fleetConfig([jobsServer()]),
    onElicitation ? { onElicitation } : { declareTaskQuestions: true },
  );
  await made.sup.start();
  await eventually(() => made.sup.getTool('jobs.confirm_delete') !== undefined, 10_000, 'the tools');
  return made.sup;
}

const resultText = (r: Record<string, unknown>) =>
  ((r.content as Array<{ text?: string }> | undefined) ?? [])[0]?.text;

describe('the questions of a task', () => {
  it('are held for a polling caller under the fleet task id, answered by key, and the task ends with the answer', async () => {
    const sup = await fleet();
    const created = await sup.callToolAsTask(
      'jobs.confirm_delete',
      { filename: 'a.txt' },
      {},
      {
        pollTaskQuestions: true,
      },
    );
    expect(created.ok).toBe(true);
    const taskId = (created.ok ? (created.result.task as { taskId: string }) : { taskId: '' }).taskId;
    await eventually(() => Object.keys(sup.taskQuestions(taskId)).length === 1, 10_000, 'one question');
    const questions = sup.taskQuestions(taskId);
    const [key, question] = Object.entries(questions)[0]!;
    expect(question).toMatchObject({
      method: 'elicitation/create',
      params: { message: 'Delete a.txt?', _meta: { 'io.modelcontextprotocol/related-task': { taskId } } },
    });
    // A key not waiting is ignored; the one waiting is answered once.
    expect(sup.answerTaskQuestions(taskId, { nope: {} })).toBe(0);
    expect(sup.answerTaskQuestions(taskId, { [key]: { action: 'accept', content: { confirm: true } } })).toBe(
      1,
    );
    expect(sup.answerTaskQuestions(taskId, { [key]: { action: 'decline' } })).toBe(0);
    const result = await sup.taskRequest('tasks/result', taskId);
    expect(result.ok && resultText(result.result)).toBe('deleted a.txt');
    // A 2025 server's task; an id this fleet never handed out is no one's.
    expect(sup.taskEra(taskId)).toBe('legacy');
    expect(sup.taskEra('jobs.never-made')).toBeUndefined();
    expect(sup.taskQuestions(taskId)).toEqual({});
  });

  it("go to the host's handler for a call that did not ask to poll them", async () => {
    const asked: ServerRequest[] = [];
    const sup = await fleet(async (r) => {
      asked.push(r);
      return { action: 'accept', content: { confirm: false } };
    });
    const created = await sup.callToolAsTask('jobs.confirm_delete', { filename: 'b.txt' }, {});
    const taskId = (created.ok ? (created.result.task as { taskId: string }) : { taskId: '' }).taskId;
    // A 2025 server asks while tasks/result is open; the handler's answer lets the task end.
    const result = await sup.taskRequest('tasks/result', taskId);
    expect(result.ok && resultText(result.result)).toBe('kept b.txt');
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ server: 'jobs', method: 'elicitation/create' });
    expect(sup.taskQuestions(taskId)).toEqual({});
  });
});

describe('the store of task questions', () => {
  it('keys each question once, forgets a question whose request ended, and bounds how many wait per task', async () => {
    const inputs = new TaskInputs();
    const gone = new AbortController();
    const first = inputs.park('t1', 'elicitation/create', { message: 'a' }, new AbortController().signal);
    void inputs.park('t1', 'elicitation/create', { message: 'b' }, gone.signal);
    void inputs.park('t2', 'roots/list', {}, new AbortController().signal);
    const keys = Object.keys(inputs.questions('t1'));
    expect(keys).toHaveLength(2);
    expect(Object.keys(inputs.questions('t2'))).toHaveLength(1);
    expect(new Set([...keys, ...Object.keys(inputs.questions('t2'))]).size).toBe(3);
    gone.abort();
    expect(Object.values(inputs.questions('t1'))).toEqual([
      { method: 'elicitation/create', params: { message: 'a' } },
    ]);
    expect(inputs.answer('t1', { [keys[0]!]: { action: 'accept' }, [keys[1]!]: {} })).toBe(1);
    expect(await first).toEqual({ result: { action: 'accept' } });
    expect(inputs.questions('t1')).toEqual({});
    for (let i = 0; i < MAX_QUESTIONS_PER_TASK; i++)
      void inputs.park('t3', 'elicitation/create', {}, new AbortController().signal);
    const over = await inputs.park('t3', 'elicitation/create', {}, new AbortController().signal);
    expect(over).toMatchObject({ error: { code: -32000 } });
    expect(Object.keys(inputs.questions('t3'))).toHaveLength(MAX_QUESTIONS_PER_TASK);
  });
});
