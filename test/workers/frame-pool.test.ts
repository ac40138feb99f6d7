import { afterEach, describe, expect, it } from 'vitest';
import { defaultFrameThreads, FramePool } from '../../src/workers/frame-pool.js';
import type { FrameTask } from '../../src/workers/frame-task.js';
import { toolResultLine } from '../framing/helpers.js';

const pools: FramePool[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

function task(line: string, withRequest: boolean): { task: FrameTask; transfer: ArrayBuffer[] } {
  const bytes = new TextEncoder().encode(line);
  const t: FrameTask = {
    parts: [{ buffer: bytes.buffer, offset: 0, length: bytes.length }],
    byteLength: bytes.length,
  };
  if (withRequest) Object.assign(t, { id: 7, request: { mode: 'text', maxBytes: 64 } });
  return { task: t, transfer: [bytes.buffer] };
}

describe('FramePool', () => {
  it('is sized for the machine and starts no thread before its first task', () => {
    const pool = new FramePool();
    pools.push(pool);
    expect(pool.maxThreads).toBe(defaultFrameThreads());
    expect(pool.maxThreads).toBeGreaterThanOrEqual(1);
    expect(pool.maxThreads).toBeLessThanOrEqual(4);
    expect(pool.started).toBe(false);
  });

  it('runs a task on a worker thread, transferring its memory', async () => {
    const pool = new FramePool({ maxThreads: 1 });
    pools.push(pool);
    const { task: t, transfer } = task(toolResultLine(7, 10_000), true);
    const result = await pool.run(t, transfer);
    expect(pool.started).toBe(true);
    expect(transfer[0]!.byteLength).toBe(0);
    expect(result).toMatchObject({ kind: 'tool-result', id: 7 });
    expect(pool.stats).toEqual({ workerTasks: 1, inlineTasks: 0, failures: 0 });
  });

  it('closes idempotently and runs later tasks inline instead of throwing', async () => {
    const pool = new FramePool({ maxThreads: 1 });
    pools.push(pool);
    await pool.run(task('{"jsonrpc":"2.0","method":"x"}', false).task, []);
    const first = pool.close();
    expect(pool.close()).toBe(first);
    await first;
    const { task: t, transfer } = task('{"jsonrpc":"2.0","method":"x"}', false);
    await expect(pool.run(t, transfer)).resolves.toEqual({
      kind: 'line',
      line: '{"jsonrpc":"2.0","method":"x"}',
    });
    expect(transfer[0]!.byteLength).toBeGreaterThan(0);
    expect(pool.stats.inlineTasks).toBe(1);
  });

  it('takes a line in parts while other lines run beside it, and gives what the whole line gives', async () => {
    const pool = new FramePool({ maxThreads: 1 });
    pools.push(pool);
    const line = toolResultLine(7, 300_000);
    const whole = await pool.run(task(line, true).task, []);
    const stream = pool.open()!;
    const bytes = new TextEncoder().encode(line);
    const cuts = [0, 100_000, 200_001, bytes.length];
    for (let i = 0; i < 2; i++) {
      const piece = bytes.slice(cuts[i], cuts[i + 1]);
      stream.push([{ buffer: piece.buffer, offset: 0, length: piece.length }], [piece.buffer]);
    }
    // the one worker is holding the open line, yet a whole line still gets through
    await expect(pool.run(task('{"jsonrpc":"2.0","method":"x"}', false).task, [])).resolves.toMatchObject({
      kind: 'line',
    });
    const { task: last, transfer } = task(new TextDecoder().decode(bytes.slice(cuts[2])), true);
    // the end names the whole line's length
    await expect(stream.end({ ...last, byteLength: bytes.length }, transfer)).resolves.toEqual(whole);
    expect(pool.stats).toEqual({ workerTasks: 3, inlineTasks: 0, failures: 0 });
  });

  it('lets a worker drop a line handed over in parts, and opens none once closed', async () => {
    const pool = new FramePool({ maxThreads: 1 });
    pools.push(pool);
    const stream = pool.open()!;
    const piece = new Uint8Array(100_000).fill(0x78);
    stream.push([{ buffer: piece.buffer, offset: 0, length: piece.length }], [piece.buffer]);
    expect(piece.byteLength).toBe(0);
    stream.abort();
    stream.abort();
    await expect(stream.end(task('{}', false).task, [])).resolves.toEqual({ kind: 'blank' });
    await pool.close();
    expect(pool.open()).toBeUndefined();
  });

  it('closes a pool that never started', async () => {
    const pool = new FramePool();
    await expect(pool.close()).resolves.toBeUndefined();
    expect(pool.started).toBe(false);
  });
});
