import { afterEach, describe, expect, it } from 'vitest';
import { liveGroups } from '../../../src/process/ledger.js';
import { eventually, fixtureServer, fleetConfig, fleets } from '../fleet.js';

const f = fleets();
afterEach(async () => {
  await f.reap();
  expect(liveGroups()).toEqual([]);
});

describe('listTasks across the fleet', () => {
  it('lists every task of every server in pages, and refuses a cursor it did not hand out', async () => {
    // Three servers of five tasks each, two to a page, and one server between them that has no tasks.
    const tasks = ['--tasks', '5', '--page-size', '2'];
    const { sup } = f.create(
      fleetConfig([
        fixtureServer('a', tasks),
        fixtureServer('none'),
        fixtureServer('b', tasks),
        fixtureServer('c', tasks),
      ]),
    );
    await sup.start();
    await eventually(() => sup.offers('tasks'), 5000, 'a server with tasks');

    const pages: string[][] = [];
    let cursor: string | undefined;
    do {
      const out = await sup.listTasks(cursor !== undefined ? { cursor } : {});
      if (!out.ok) throw new Error(`page ${pages.length}: ${out.code} ${out.message}`);
      pages.push(out.result.tasks.map((t) => String(t.taskId)));
      cursor = out.result.nextCursor;
    } while (cursor !== undefined && pages.length < 20);

    // Each server's pages in turn, as the server pages them, under ids of the fleet's own: the fixture numbers its
    // tasks (task-1, task-2, …), which anyone could guess; the fleet's are `<server>.<random UUID>`.
    const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
    expect(pages.map((p) => p.length)).toEqual([2, 2, 1, 2, 2, 1, 2, 2, 1]);
    pages.forEach((p, i) => {
      const server = ['a', 'b', 'c'][Math.floor(i / 3)]!;
      for (const id of p) expect(id).toMatch(new RegExp(`^${server}\\.${UUID}$`));
    });
    const ids = pages.flat();
    expect(new Set(ids).size).toBe(15);
    // Listed again, each task keeps its id; every one is a task the fleet can route.
    const again = await sup.listTasks();
    expect(again.ok && again.result.tasks.map((t) => t.taskId)).toEqual(pages[0]);
    const got = await sup.taskRequest('tasks/get', pages[4]![1]!);
    expect(got.ok && got.result).toMatchObject({ taskId: pages[4]![1], status: 'completed' });
    expect(await sup.taskRequest('tasks/get', 'b.task-4')).toMatchObject({ ok: false, code: 'UNKNOWN_TASK' });

    for (const bad of ['not a cursor', Buffer.from('{"s":"gone"}').toString('base64url')]) {
      const out = await sup.listTasks({ cursor: bad });
      expect(out.ok ? 'ok' : out.code, bad).toBe('INVALID_CURSOR');
    }
  });
});
