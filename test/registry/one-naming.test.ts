import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RegistryError } from '../../src/registry/errors.js';
import { exposedName, exposedNameOwner, isValidMcpToolName } from '../../src/registry/exposed-name.js';
import {
  isValidBareName,
  parseNamespacedName,
  splitsBack,
  synthesizeNamespacedName,
} from '../../src/registry/naming.js';

// The seed's names and the fleet's exposed names are one system: these pin the places they must agree.

const segment = fc
  .tuple(fc.constantFrom(...'abcxyz'), fc.string({ unit: fc.constantFrom(...'abz09_'), maxLength: 6 }))
  .map(([h, t]) => h + t);
const bareName = fc.array(segment, { minLength: 1, maxLength: 4 }).map((s) => s.join('.'));
const serverId = fc
  .tuple(fc.constantFrom(...'abfm'), fc.string({ unit: fc.constantFrom(...'ab_-0'), maxLength: 6 }))
  .map(([h, t]) => h + t);
const separator = fc.constantFrom('.', '__', '_', '-', '::', '/');

function thrown(fn: () => unknown): RegistryError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(RegistryError);
    return err as RegistryError;
  }
  throw new Error('expected a RegistryError');
}

describe('exposedName extends synthesizeNamespacedName', () => {
  it('is exactly the seed name for a strict bare name under the default separator, while it fits 64', () => {
    fc.assert(
      fc.property(serverId, bareName, (s, b) => {
        const seed = synthesizeNamespacedName(s, b);
        if (seed.length <= 64) expect(exposedName(s, b, '.')).toBe(seed);
        else expect(exposedName(s, b, '.')).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
      }),
      { numRuns: 500 },
    );
  });

  it('keeps a join plain under any separator exactly when the seed would accept it, or hashes it', () => {
    fc.assert(
      fc.property(serverId, bareName, separator, (s, b, sep) => {
        const name = exposedName(s, b, sep);
        let seed: string | undefined;
        try {
          seed = synthesizeNamespacedName(s, b, sep);
        } catch {
          seed = undefined;
        }
        expect(seed === undefined).toBe(!splitsBack(s, sep));
        if (seed === undefined) expect(name).not.toBe(s + sep + b);
        if (name === s + sep + b) expect(seed).toBe(name);
      }),
      { numRuns: 500 },
    );
  });

  it('refuses what the seed refuses about the server id and separator, with the same code and message', () => {
    for (const [s, sep] of [
      ['Files', '.'],
      ['a.b', '.'],
      ['', '.'],
      ['files', ''],
    ] as const) {
      const fleet = thrown(() => exposedName(s, 'tool', sep));
      const seed = thrown(() => synthesizeNamespacedName(s, 'tool', sep));
      expect(fleet.code).toBe('invalid_name');
      expect(fleet.message).toBe(seed.message);
    }
  });
});

describe('exposedNameOwner extends parseNamespacedName', () => {
  it('names the server parseNamespacedName finds, for every plain name of a strict tool', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(serverId, { minLength: 1, maxLength: 5 }),
        bareName,
        separator,
        (ids, b, sep) => {
          for (const s of ids) {
            const name = exposedName(s, b, sep);
            if (name !== s + sep + b) continue;
            expect(parseNamespacedName(name, sep)).toEqual({ pluginId: s, bareName: b });
            expect(exposedNameOwner(name, ids, sep)).toBe(s);
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  it('names the right server for every plain name of any MCP tool name, whatever other servers exist', () => {
    const toolName = fc
      .string({ unit: fc.constantFrom(...'aZ9_.-'), minLength: 1, maxLength: 20 })
      .filter(isValidMcpToolName);
    fc.assert(
      fc.property(
        fc.uniqueArray(serverId, { minLength: 1, maxLength: 6 }),
        toolName,
        separator,
        (ids, t, sep) => {
          for (const s of ids) {
            const name = exposedName(s, t, sep);
            if (name === s + sep + t) expect(exposedNameOwner(name, ids, sep)).toBe(s);
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  it('names the server of a hashed name by its LLM-safe stem, the longest id first', () => {
    const hashed = exposedName('fx', 'x'.repeat(70), '.');
    expect(exposedNameOwner(hashed, ['fx', 'f', 'other'], '.')).toBe('fx');
    const deep = exposedName('fx_more', 'get.env', '__');
    expect(exposedNameOwner(deep, ['fx', 'fx_more'], '__')).toBe('fx_more');
  });

  it('names no server for a name that is no server’s', () => {
    for (const name of ['nobody.echo', 'fx', '', '.echo', 'fxecho'])
      expect(exposedNameOwner(name, ['fx', 'fx_more'], '.')).toBeUndefined();
  });

  it('does not split a hashed name at its separator: a__b__c from server a__b is not server a’s', () => {
    const name = exposedName('a__b', 'c', '__');
    expect(name).toMatch(/-[0-9a-f]{8}$/);
    expect(exposedNameOwner(name, ['a', 'a__b'], '__')).toBe('a__b');
  });
});

describe('isValidBareName names are a subset of the MCP charset', () => {
  it('every strict bare name is a valid discovered name', () => {
    fc.assert(
      fc.property(bareName, (b) => {
        expect(isValidBareName(b)).toBe(true);
        expect(b.length > 128 || isValidMcpToolName(b)).toBe(true);
      }),
    );
  });
});
