import { afterEach, describe, expect, it } from 'vitest';
import { liveGroups } from '../../src/process/ledger.js';
import { eventually, fixtureServer, fleetConfig, fleets } from './fleet.js';

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

    // Each server's pages in turn, as the server pages them, under the fleet's ids.
    const page = (s: string, ...n: number[]) => n.map((i) => `${s}.task-${i}`);
    const each = (s: string) => [page(s, 1, 2), page(s, 3, 4), page(s, 5)];
    expect(pages).toEqual([...each('a'), ...each('b'), ...each('c')]);
    // Every one is a task the fleet can route.
    const got = await sup.taskRequest('tasks/get', 'b.task-3');
    expect(got.ok && got.result).toMatchObject({ taskId: 'b.task-3', status: 'completed' });

    for (const bad of ['not a cursor', Buffer.from('{"s":"gone"}').toString('base64url')]) {
      const out = await sup.listTasks({ cursor: bad });
      expect(out.ok ? 'ok' : out.code, bad).toBe('INVALID_CURSOR');
    }
  });
});
