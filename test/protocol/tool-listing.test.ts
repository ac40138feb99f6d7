import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SimulatedClock } from 'xstate';
import { listAllTools } from '../../src/protocol/tool-calls.js';
import { describeCut, listTools } from '../../src/protocol/tool-listing.js';
import { FramePool } from '../../src/workers/frame-pool.js';
import { eventually } from '../supervisor/fleet.js';
import { fixtureConnections, readLog, tempDir } from '../supervisor/helpers.js';

const MiB = 1024 * 1024;
const fx = fixtureConnections();
const pools: FramePool[] = [];
const dirs: Array<{ cleanup(): void }> = [];
afterEach(async () => {
  await fx.reap();
  for (const d of dirs.splice(0)) d.cleanup();
  await Promise.all(pools.splice(0).map((p) => p.close()));
  fx.events.length = 0;
});

const tmp = () => {
  const t = tempDir();
  dirs.push(t);
  return t.dir;
};

const wide = { timeoutMs: 10_000, maxBytes: 64 * MiB, maxPages: 1000 };

async function endless(pageBytes: number, pool?: FramePool) {
  const conn = fx.open(['--endless-list', String(pageBytes), '--endless-from-start'], pool ? { pool } : {});
  await conn.initialize();
  return conn;
}

describe('listTools bounds', () => {
  it('a listing that ends within its bounds is whole, with no cut', async () => {
    const conn = fx.open(['--tools', '25', '--page-size', '4']);
    await conn.initialize();
    const listing = await listTools(conn, { ...wide, maxPages: 20 });
    expect(listing.cut).toBeUndefined();
    expect(listing.tools.filter((t) => t.name.startsWith('tool_'))).toHaveLength(25);
  });

  it('stops before the page that would pass the byte bound, keeping whole pages only', async () => {
    const conn = await endless(64 * 1024);
    const listing = await listTools(conn, { ...wide, maxBytes: MiB });
    expect(listing.cut).toMatchObject({ bound: 'bytes', limit: MiB });
    expect(listing.cut!.bytes).toBeLessThanOrEqual(MiB);
    expect(listing.cut!.bytes).toBeGreaterThan(MiB - 64 * 1024 - 4096);
    // 64 tools a page, and only whole pages.
    expect(listing.tools).toHaveLength(64 * listing.cut!.pages);
    expect(new Set(listing.tools.map((t) => t.name)).size).toBe(listing.tools.length);
  });

  it('stops at the page bound', async () => {
    const conn = await endless(2048);
    const listing = await listTools(conn, { ...wide, maxPages: 7 });
    expect(listing.cut).toMatchObject({ bound: 'pages', limit: 7, pages: 7 });
    expect(listing.tools.at(-1)!.name).toBe('endless_6_1');
    expect(describeCut(listing.cut!)).toBe('tools/list stopped at its bound of 7 pages (after 7 pages)');
  });

  it('stops at the time bound, which covers the whole listing, not each page', async () => {
    const log = join(tmp(), 'log');
    // The bound runs on the connection's clock, which stands still while pages come and go: no page's own wait
    // can run out, however slow the machine, and only the listing's time can end it.
    const clock = new SimulatedClock();
    const conn = fx.open(['--endless-list', '1024', '--endless-from-start', '--log', log], { clock });
    await conn.initialize();
    const asked = () => readLog(log).filter((m) => m.method === 'tools/list').length;
    const listing = listTools(conn, { timeoutMs: 300, maxBytes: 1024 * MiB, maxPages: 1e9 });
    await eventually(() => asked() >= 2, 5000, 'two pages asked for');
    clock.increment(299);
    // A ms before the bound it still lists: a page is asked for after the one that may have been on its way.
    const before = asked();
    await eventually(() => asked() >= before + 2, 5000, 'pages asked for at 299 ms');
    clock.increment(1);
    const { cut } = await listing;
    expect(cut).toMatchObject({ bound: 'time', limit: 300 });
    expect(cut!.pages).toBeGreaterThan(1);
  });

  it('stops at a page that arrived cut to the per-page cap, keeping what the page kept', async () => {
    // Large lines are cut to their caps on the worker pool, as the supervisor's connections have them read.
    const pool = new FramePool({ maxThreads: 1 });
    pools.push(pool);
    const conn = await endless(2 * MiB, pool);
    const listing = await listTools(conn, wide);
    expect(listing.cut).toMatchObject({ bound: 'page', limit: MiB, pages: 1 });
    expect(listing.tools.length).toBeGreaterThan(500);
    expect(listing.tools.length).toBeLessThan(2048);
    expect(listing.cut!.bytes).toBeLessThanOrEqual(MiB);
    expect(describeCut(listing.cut!)).toBe('tools/list stopped at page 1, cut to the page cap of 1 MiB');
    await expect(listAllTools(conn, 10_000)).rejects.toMatchObject({ code: 'INVALID_RESPONSE' });
  });

  it('listAllTools, all or nothing, rejects a cut listing', async () => {
    const conn = await endless(512);
    await expect(listAllTools(conn, 10_000)).rejects.toMatchObject({
      code: 'INVALID_RESPONSE',
      message: 'tools/list stopped at its bound of 1000 pages (after 1000 pages)',
    });
  });
});
