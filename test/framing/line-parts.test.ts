import { describe, expect, it } from 'vitest';
import { MIN_TRANSFER_BYTES, ownsWholeBuffer, packLineParts } from '../../src/framing/line-parts.js';

describe('ownsWholeBuffer', () => {
  it('accepts only a view of its whole, non-shared ArrayBuffer', () => {
    expect(ownsWholeBuffer(new Uint8Array(10))).toBe(true);
    expect(ownsWholeBuffer(Buffer.allocUnsafeSlow(100))).toBe(true);
    expect(ownsWholeBuffer(Buffer.from('small'))).toBe(false); // pooled 8 KiB slab
    expect(ownsWholeBuffer(new Uint8Array(10).subarray(2))).toBe(false);
    expect(ownsWholeBuffer(new Uint8Array(new SharedArrayBuffer(10)))).toBe(false);
  });
});

describe('packLineParts', () => {
  it('transfers owned large pieces with their offsets and copies the rest in runs', () => {
    const a = new Uint8Array(MIN_TRANSFER_BYTES + 10).fill(1);
    const b = new Uint8Array(MIN_TRANSFER_BYTES).fill(2);
    const c = new Uint8Array(MIN_TRANSFER_BYTES * 2).fill(3);
    const owned = new WeakSet<ArrayBuffer>([a.buffer, b.buffer, c.buffer]);
    const pieces = [a.subarray(10), Uint8Array.of(9), Uint8Array.of(8), b, c.subarray(0, 5)];
    const { parts, transfer } = packLineParts(pieces, true, owned);
    expect(parts.map((p) => [p.buffer === a.buffer, p.offset, p.length])).toEqual([
      [true, 10, MIN_TRANSFER_BYTES],
      [false, 0, 2],
      [false, 0, MIN_TRANSFER_BYTES],
      [false, 0, 5],
    ]);
    expect(parts[2]!.buffer).toBe(b.buffer);
    expect(transfer).toHaveLength(4);
    expect(new Set(transfer).size).toBe(4);
    expect(transfer).not.toContain(c.buffer); // the shared last piece was copied
    expect([...new Uint8Array(parts[1]!.buffer)]).toEqual([9, 8]);
  });
});
