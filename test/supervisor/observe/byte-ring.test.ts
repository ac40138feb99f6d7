import { describe, expect, it } from 'vitest';
import { ByteRing } from '../../../src/supervisor/observe/byte-ring.js';

describe('ByteRing', () => {
  it('keeps the newest items whose sizes fit, oldest first', () => {
    const ring = new ByteRing<number>(100);
    for (let i = 0; i < 1000; i++) ring.push(i, 30);
    expect(ring.toArray()).toEqual([997, 998, 999]);
    expect(ring.bytes).toBe(90);
  });

  it('keeps the newest item alone when it is larger than the ring', () => {
    const ring = new ByteRing<string>(100);
    ring.push('small', 10);
    ring.push('huge', 500);
    expect(ring.toArray()).toEqual(['huge']);
    ring.push('next', 10);
    expect(ring.toArray()).toEqual(['next']);
    expect(ring.bytes).toBe(10);
  });

  it('stays within its bound through a flood of a million items', () => {
    const ring = new ByteRing<number>(64 * 1024);
    const n = 1_000_000;
    for (let i = 0; i < n; i++) {
      ring.push(i, 64);
      if (ring.bytes > 64 * 1024) throw new Error(`over the bound at ${i}`);
    }
    const kept = ring.toArray();
    expect(kept).toHaveLength(1024);
    expect(kept[0]).toBe(n - 1024);
    expect(kept.at(-1)).toBe(n - 1);
  });
});
