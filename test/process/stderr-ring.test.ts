import { afterEach, describe, expect, it } from 'vitest';
import { STDERR_HEAD_LINES, StderrRing } from '../../src/process/stderr-ring.js';
import { fixtureConnections } from '../supervisor/helpers.js';

const fx = fixtureConnections();
afterEach(fx.reap);

const lines = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => `line ${from + i}`);

describe('StderrRing', () => {
  it('gives everything back, unmarked, while it fits', () => {
    const ring = new StderrRing();
    ring.push(Buffer.from(`${lines(1, 5).join('\n')}\n`));
    expect(ring.tail()).toBe(lines(1, 5).join('\n'));
  });

  it('keeps the first lines and the last ones, with the count of lines skipped between', () => {
    const ring = new StderrRing(64 * 1024);
    ring.push(Buffer.from(`${lines(1, 100).join('\n')}\n`));
    expect(ring.tail(5).split('\n')).toEqual([
      ...lines(1, STDERR_HEAD_LINES),
      `[… ${100 - STDERR_HEAD_LINES - 5} lines skipped …]`,
      ...lines(96, 100),
    ]);
  });

  it('keeps the first lines after the ring dropped them, written in small chunks', () => {
    const ring = new StderrRing(200);
    for (const line of lines(1, 500)) ring.push(Buffer.from(`${line}\n`));
    expect(ring.tail(3).split('\n')).toEqual([
      ...lines(1, STDERR_HEAD_LINES),
      `[… ${500 - STDERR_HEAD_LINES - 3} lines skipped …]`,
      ...lines(498, 500),
    ]);
  });

  it('drops the partial lines at both cuts, even from one huge chunk', () => {
    const ring = new StderrRing(100, 30);
    ring.push(Buffer.from(`first\nsecond line is long enough to be cut\n${'x'.repeat(500)}\nlast\n`));
    expect(ring.tail()).toBe('first\n[… 2 lines skipped …]\nlast');
  });

  it('shows an overlap of head and tail once', () => {
    const ring = new StderrRing(20, 20);
    ring.push(Buffer.from('aaaa\nbbbb\ncccc\ndddd\n'));
    ring.push(Buffer.from('e\n'));
    expect(ring.tail()).toBe('aaaa\nbbbb\ncccc\ndddd\ne');
  });
});

describe('an exit of a server that dies at start with a long stack', () => {
  it('names the cause from the first lines and ends with the last ones', async () => {
    const conn = fx.open(['--throw-at-start', '400']);
    const exit = await conn.exited;
    expect(exit.code).toBe(1);
    const tail = exit.stderrTail.split('\n');
    expect(tail).toContain("Error: Cannot find module 'fixture-missing-dependency'");
    expect(tail.find((l) => l.startsWith('[…'))).toMatch(/^\[… \d+ lines skipped …\]$/);
    expect(tail.at(-1)).toMatch(/^Node\.js v\d+/);
    expect(tail.length).toBeLessThanOrEqual(STDERR_HEAD_LINES + 1 + 20);
  });
});
