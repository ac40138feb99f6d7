import { describe, expect, it } from 'vitest';
import type { McpConnection } from '../../../src/protocol/connection.js';
import { MAX_TASKS, renameTask, TaskBook } from '../../../src/supervisor/tasks/book.js';

// The book compares runs by identity only: two distinct objects stand for two runs of a server.
const run1 = {} as McpConnection;
const run2 = {} as McpConnection;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('TaskBook', () => {
  it("hands out ids of its own, `<server>.<random UUID>`, whatever the server's ids are", () => {
    const book = new TaskBook('.');
    const a = book.remember('s', '1', run1, { status: 'working' });
    const b = book.remember('t', '1', run1, { status: 'working' });
    expect(a.startsWith('s.') && UUID.test(a.slice(2))).toBe(true);
    expect(b.startsWith('t.') && UUID.test(b.slice(2))).toBe(true);
    expect(book.get(a)).toMatchObject({ server: 's', taskId: '1', conn: run1, last: { taskId: a } });
    expect(book.find('s', '1')).toBe(a);
    expect(book.find('s', '2')).toBeUndefined();
  });

  it('keeps a task its id and owner when the same run tells of it again; another run gets a new id', () => {
    const book = new TaskBook('.');
    const made = book.remember('s', '7', run1, { status: 'working' }, { owner: 'alice', polled: true });
    const listed = book.remember('s', '7', run1, { status: 'completed' });
    expect(listed).toBe(made);
    expect(book.get(made)).toMatchObject({ owner: 'alice', polled: true, last: { status: 'completed' } });
    const again = book.remember('s', '7', run2, { status: 'working' });
    expect(again).not.toBe(made);
    expect(book.get(again)?.owner).toBeUndefined();
    // The old run's task is still known (its requests fail TASK_LOST), but no longer found by the server's id.
    expect(book.get(made)?.conn).toBe(run1);
    expect(book.find('s', '7')).toBe(again);
    expect(book.ownedBy(made, 'alice')).toBe(true);
    expect(book.ownedBy(made, undefined)).toBe(false);
    expect(book.ownedBy(again, undefined)).toBe(true);
  });

  it('forgets the oldest past MAX_TASKS, by both ids', () => {
    const book = new TaskBook('.');
    const first = book.remember('s', 'first', run1, {});
    for (let i = 0; i < MAX_TASKS; i++) book.remember('s', `t${i}`, run1, {});
    expect(book.get(first)).toBeUndefined();
    expect(book.find('s', 'first')).toBeUndefined();
    expect(book.find('s', `t${MAX_TASKS - 1}`)).toBeDefined();
  });

  it("renames a result's task id and its related-task _meta to the fleet's", () => {
    const meta = { 'io.modelcontextprotocol/related-task': { taskId: '7' }, other: 1 };
    expect(renameTask({ taskId: '7', _meta: meta, content: [] }, 's.x')).toEqual({
      taskId: 's.x',
      _meta: { 'io.modelcontextprotocol/related-task': { taskId: 's.x' }, other: 1 },
      content: [],
    });
  });
});
