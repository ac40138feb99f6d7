import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isSparseJson, SPARSE_BYTES_PER_VALUE } from '../../src/framing/json-sparse.js';

/** Every value in a JSON value, counted without a budget. */
function countValues(v: unknown): number {
  if (typeof v !== 'object' || v === null) return 1;
  const inner = Array.isArray(v) ? v : Object.values(v);
  return 1 + inner.reduce<number>((n, x) => n + countValues(x), 0);
}

describe('isSparseJson', () => {
  it('holds exactly when a value has at most one value per SPARSE_BYTES_PER_VALUE bytes (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.nat(20_000), (value, bytes) => {
        const sparse = countValues(value) <= Math.floor(bytes / SPARSE_BYTES_PER_VALUE);
        expect(isSparseJson(value, bytes)).toBe(sparse);
      }),
      { numRuns: 300 },
    );
  });

  it('stops walking a dense value of millions of values at its budget', () => {
    let reads = 0;
    const item = (i: number) =>
      new Proxy(
        { i, tags: ['a', 'b'] },
        {
          get(target, key, receiver) {
            reads++;
            return Reflect.get(target, key, receiver);
          },
        },
      );
    const dense = { list: Array.from({ length: 2_000_000 }, (_, i) => item(i)) };
    expect(isSparseJson(dense, 10 * SPARSE_BYTES_PER_VALUE)).toBe(false);
    // two million items outnumber a budget of ten on length alone: none of them is opened
    expect(reads).toBe(0);
    const few = { list: Array.from({ length: 3 }, (_, i) => item(i)) };
    // the root, the list, and five values in each of the three items
    expect(isSparseJson(few, 16 * SPARSE_BYTES_PER_VALUE)).toBe(false);
    expect(isSparseJson(few, 17 * SPARSE_BYTES_PER_VALUE)).toBe(true);
  });
});
