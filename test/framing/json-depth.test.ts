import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, nestedDeeperThan } from '../../src/framing/json-depth.js';

/** `depth` levels: objects and arrays taking turns, around a leaf. */
function nested(depth: number): unknown {
  let v: unknown = 'leaf';
  for (let i = 0; i < depth; i++) v = i % 2 === 0 ? { a: v } : [1, v];
  return v;
}

describe('nestedDeeperThan', () => {
  it('counts objects and arrays as levels, and nothing else', () => {
    expect(nestedDeeperThan('text', 0)).toBe(false);
    expect(nestedDeeperThan(null, 0)).toBe(false);
    expect(nestedDeeperThan({}, 0)).toBe(true);
    expect(nestedDeeperThan({}, 1)).toBe(false);
    expect(nestedDeeperThan(nested(3), 3)).toBe(false);
    expect(nestedDeeperThan(nested(3), 2)).toBe(true);
  });

  it('finds the one deep branch among wide shallow ones', () => {
    const wide = { a: Array.from({ length: 1000 }, (_, i) => ({ i })), b: { c: nested(MAX_JSON_DEPTH) } };
    expect(nestedDeeperThan(wide)).toBe(true);
    expect(nestedDeeperThan({ a: wide.a, b: { c: nested(MAX_JSON_DEPTH - 2) } })).toBe(false);
  });

  it('walks a value far deeper than the stack allows a recursion to', () => {
    const text = `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`;
    const value: unknown = JSON.parse(text);
    expect(() => JSON.stringify(value)).toThrow(RangeError);
    expect(nestedDeeperThan(value)).toBe(true);
    expect(nestedDeeperThan(value, 100_000)).toBe(false);
  });
});
