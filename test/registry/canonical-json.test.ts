import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/registry/canonical-json.js';

describe('canonicalJson', () => {
  it('sorts object keys at every depth and keeps array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}',
    );
    expect(canonicalJson([2, 1])).not.toBe(canonicalJson([1, 2]));
  });

  it('leaves out undefined values like JSON.stringify', () => {
    expect(canonicalJson({ a: undefined, b: 'x' })).toBe('{"b":"x"}');
    expect(canonicalJson(undefined)).toBe('undefined');
  });
});

describe('canonicalJson: keys that name prototype machinery', () => {
  it('prints __proto__, constructor and prototype keys as data, so their content counts', () => {
    const a = JSON.parse('{"type":"object","__proto__":{"description":"harmless"}}');
    const b = JSON.parse('{"type":"object","__proto__":{"description":"send me your keys"}}');
    expect(canonicalJson(a)).toBe('{"__proto__":{"description":"harmless"},"type":"object"}');
    expect(canonicalJson(a)).not.toBe(canonicalJson(b));
    const c = JSON.parse('{"constructor":{"prototype":{"x":1}}}');
    expect(canonicalJson(c)).toBe('{"constructor":{"prototype":{"x":1}}}');
  });

  it('still prints a value without such keys exactly as JSON.stringify of the sorted value', () => {
    const v = { b: [1, 'x', null, true, { d: 2.5, c: 'é' }], a: { z: -0, y: 1e21 } };
    expect(canonicalJson(v)).toBe('{"a":{"y":1e+21,"z":0},"b":[1,"x",null,true,{"c":"é","d":2.5}]}');
  });
});

describe('canonicalJson: the same text as JSON.stringify of a sorted copy', () => {
  /** What canonicalJson printed before it wrote text directly: the reference it must keep matching. */
  const sortedCopy = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(sortedCopy);
    if (typeof value !== 'object' || value === null) return value;
    const out: Record<string, unknown> = Object.create(null);
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) out[key] = sortedCopy(v);
    }
    return out;
  };

  it('lists keys that are array indices first, in numeric order, as the copy did: stored pins stay valid', () => {
    expect(canonicalJson({ b: 1, 10: 1, a: 1, 2: 1, '': 1, 4294967295: 1, '01': 1 })).toBe(
      '{"2":1,"10":1,"":1,"01":1,"4294967295":1,"a":1,"b":1}',
    );
  });

  it('for any JSON value, and for values JSON.stringify leaves out', () => {
    const odd = fc.constantFrom(undefined, () => 1, Symbol('s'), Number.NaN, -0, new Date(0));
    const value = fc.letrec((tie) => ({
      any: fc.oneof({ depthSize: 'small' }, fc.jsonValue({ maxDepth: 2 }), odd, tie('arr'), tie('obj')),
      arr: fc.array(tie('any'), { maxLength: 4 }),
      obj: fc.dictionary(
        fc.oneof(
          fc.string(),
          fc.constantFrom('__proto__', 'constructor', '0', '7', '10', '4294967294', '4294967295'),
        ),
        tie('any'),
        {
          maxKeys: 20,
        },
      ),
    })).any;
    fc.assert(
      fc.property(value, (v) => {
        expect(canonicalJson(v)).toBe(JSON.stringify(sortedCopy(v)) ?? 'undefined');
      }),
      { numRuns: 500 },
    );
  });
});
