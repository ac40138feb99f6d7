import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RegistryError } from '../../src/registry/errors.js';
import {
  exposedName,
  isValidMcpToolName,
  LLM_SAFE_NAME,
  MAX_EXPOSED_NAME,
} from '../../src/registry/exposed-name.js';

const sha8 = (s: string, t: string) =>
  createHash('sha256')
    .update(s + '\0' + t)
    .digest('hex')
    .slice(0, 8);

describe('exposedName: plain joins', () => {
  it.each([
    ['files', 'read_file', '.', 'files.read_file'],
    ['everything', 'get-env', '.', 'everything.get-env'],
    ['everything', 'getTinyImage', '.', 'everything.getTinyImage'],
    ['markview', 'documents.create', '.', 'markview.documents.create'],
    ['files', 'read_file', '__', 'files__read_file'],
    ['everything', 'get-env', '__', 'everything__get-env'],
    ['my-srv', 'x', '__', 'my-srv__x'],
    ['a', '_b', '__', 'a___b'],
  ])('(%j, %j, %j) → %j', (s, t, sep, want) => {
    expect(exposedName(s, t, sep)).toBe(want);
  });

  it('keeps a dotted name plain under "." even when it ends like a hash suffix', () => {
    expect(exposedName('a', 'build-0123abcd', '.')).toBe('a.build-0123abcd');
  });
});

describe('exposedName: LLM-safe forms', () => {
  it('replaces characters outside [A-Za-z0-9_-] under "__" and adds the stable hash', () => {
    const name = exposedName('everything', 'get.env', '__');
    expect(name).toBe(`everything__get_env-${sha8('everything', 'get.env')}`);
    expect(name).toMatch(LLM_SAFE_NAME);
    expect(name).not.toBe(exposedName('everything', 'get_env', '__'));
  });

  it('hashes both sides of an ambiguous "__" join (a__b + c vs a + b__c)', () => {
    const left = exposedName('a__b', 'c', '__');
    const right = exposedName('a', 'b__c', '__');
    expect(right).toBe('a__b__c');
    expect(left).toBe(`a__b__c-${sha8('a__b', 'c')}`);
    expect(left).not.toBe(right);
    // A server id ending in `_` merges with the separator just the same.
    expect(exposedName('a_', 'b', '__')).toBe(`a___b-${sha8('a_', 'b')}`);
    expect(exposedName('a', '_b', '__')).toBe('a___b');
  });

  it('hashes a safe plain join that ends like a hashed name, so it cannot impersonate one', () => {
    const forged = `b_c-${sha8('a', 'b.c')}`;
    expect(exposedName('a', 'b.c', '__')).toBe(`a__${forged}`);
    expect(exposedName('a', forged, '__')).not.toBe(`a__${forged}`);
    expect(exposedName('a', forged, '__')).toMatch(/-[0-9a-f]{8}$/);
  });

  it('shortens joins over 64 characters to at most 64, LLM-safe, and distinct', () => {
    const stem = 'x'.repeat(100);
    const a = exposedName('files', `${stem}.one`, '.');
    const b = exposedName('files', `${stem}.two`, '.');
    for (const n of [a, b]) {
      expect(n.length).toBeLessThanOrEqual(MAX_EXPOSED_NAME);
      expect(n).toMatch(LLM_SAFE_NAME);
      expect(n.startsWith('files_xxxx')).toBe(true);
    }
    expect(a).not.toBe(b);
    expect(exposedName('s', 'y'.repeat(62), '.')).toBe(`s.${'y'.repeat(62)}`); // exactly 64: kept
    expect(exposedName('s', 'y'.repeat(63), '.')).toHaveLength(64);
    expect(exposedName('s', 'y'.repeat(63), '.')).not.toBe(`s.${'y'.repeat(63)}`);
  });

  it('is stable: the same inputs always give the same name, pinned to sha256(serverId NUL toolName)', () => {
    const tool = `${'z'.repeat(70)}.q`;
    expect(exposedName('srv', tool, '.')).toBe(exposedName('srv', tool, '.'));
    expect(exposedName('srv', tool, '.')).toBe(
      `${`srv_${tool.replace('.', '_')}`.slice(0, 55)}-${sha8('srv', tool)}`,
    );
  });

  it('refuses a bad server id or an empty separator with code invalid_name', () => {
    for (const [s, sep] of [
      ['Files', '.'],
      ['a.b', '.'],
      ['', '.'],
      ['files', ''],
    ] as const) {
      try {
        exposedName(s, 't', sep);
        expect.unreachable(`accepted ${s} ${sep}`);
      } catch (err) {
        expect(err).toBeInstanceOf(RegistryError);
        expect((err as RegistryError).code).toBe('invalid_name');
      }
    }
  });
});

describe('isValidMcpToolName', () => {
  it('accepts the MCP charset and rejects the rest', () => {
    for (const ok of ['get-env', 'getTinyImage', 'read_file', 'a.b', 'x'.repeat(128)]) {
      expect(isValidMcpToolName(ok)).toBe(true);
    }
    for (const bad of ['', 'has space', 'x'.repeat(129), 'ünï', 'a/b', 7, null]) {
      expect(isValidMcpToolName(bad)).toBe(false);
    }
  });
});

// Built from a few fragments on purpose: separators, `_`/`.`/`-` runs and near-misses meet often, so plain
// joins of different pairs coincide often and only the encoding keeps them apart.
const frag = fc.constantFrom('a', 'b', '_', '__', '-', '--', '0');
const serverId = fc.array(frag, { maxLength: 5 }).map((fs) => `a${fs.join('')}`);
const toolName = fc.oneof(
  fc
    .array(fc.constantFrom('a', 'b', '_', '__', '.', '-', '--', 'B'), { minLength: 1, maxLength: 5 })
    .map((fs) => fs.join('')),
  fc.string({ unit: fc.constantFrom('a', '_', '.', '-'), minLength: 50, maxLength: 128 }),
);
const separator = fc.constantFrom('.', '__', '_', '-', '--');
const pair = fc.tuple(serverId, toolName);

describe('exposedName: uniqueness property', () => {
  it('maps distinct (server, tool) pairs to distinct names, always ≤ 64, LLM-safe under "__"', () => {
    fc.assert(
      fc.property(
        separator,
        fc.uniqueArray(pair, { minLength: 2, maxLength: 40, selector: ([s, t]) => `${s}\0${t}` }),
        (sep, pairs) => {
          const names = pairs.map(([s, t]) => exposedName(s, t, sep));
          expect(new Set(names).size).toBe(pairs.length);
          for (const n of names) {
            expect(n.length).toBeLessThanOrEqual(MAX_EXPOSED_NAME);
            if (sep === '__') expect(n).toMatch(LLM_SAFE_NAME);
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  it('separates every split of one string at its separators, and `.`/`_` twins of each tool name', () => {
    const joined = fc
      .array(fc.constantFrom('a', 'b', '_', '__', '.', '-', '--'), { minLength: 1, maxLength: 10 })
      .map((fs) => `a${fs.join('')}`);
    fc.assert(
      fc.property(separator, joined, (sep, text) => {
        const pairs = new Map<string, [string, string]>();
        for (let at = text.indexOf(sep); at > 0; at = text.indexOf(sep, at + 1)) {
          const s = text.slice(0, at);
          const t = text.slice(at + sep.length);
          if (!/^[a-z][a-z0-9_-]*$/.test(s) || !isValidMcpToolName(t)) continue;
          for (const variant of [t, t.replaceAll('.', '_'), t.replaceAll('_', '.')]) {
            if (isValidMcpToolName(variant)) pairs.set(`${s}\0${variant}`, [s, variant]);
          }
        }
        const names = [...pairs.values()].map(([s, t]) => exposedName(s, t, sep));
        expect(new Set(names).size).toBe(pairs.size);
      }),
      { numRuns: 1000 },
    );
  });

  it('separates adversarial pairs: moved separators and `.` vs `_`', () => {
    const part = fc.string({ unit: fc.constantFrom('a', 'b', '_', '-'), minLength: 1, maxLength: 6 });
    fc.assert(
      fc.property(separator, part, part, part, (sep, a, b, c) => {
        const s1 = `a${a}`;
        // s1+sep+b as a server id needs sep in the server-id charset; `.` is covered by the dot/underscore case.
        if (sep !== '.') {
          const moved = [exposedName(s1 + sep + b, c, sep), exposedName(s1, b + sep + c, sep)];
          expect(moved[0]).not.toBe(moved[1]);
        }
        const dotted = exposedName(s1, `${b}.${c}`, sep);
        const underscored = exposedName(s1, `${b}_${c}`, sep);
        expect(dotted).not.toBe(underscored);
      }),
      { numRuns: 400 },
    );
  });

  it('depends only on its own inputs, whatever else is named alongside', () => {
    fc.assert(
      fc.property(separator, pair, fc.array(pair, { maxLength: 20 }), (sep, [s, t], others) => {
        const alone = exposedName(s, t, sep);
        for (const [os, ot] of others) exposedName(os, ot, sep);
        expect(exposedName(s, t, sep)).toBe(alone);
      }),
    );
  });
});
