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
