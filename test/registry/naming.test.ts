import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RegistryError } from '../../src/registry/errors.js';
import {
  isValidBareName,
  isValidServerId,
  parseNamespacedName,
  synthesizeNamespacedName,
} from '../../src/registry/naming.js';

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(RegistryError);
    return (err as RegistryError).code;
  }
  return undefined;
}

const lower = 'abcdefghijklmnopqrstuvwxyz';
const letter = fc.constantFrom(...lower);
const segment = fc
  .tuple(letter, fc.string({ unit: fc.constantFrom(...`${lower}0123456789_`), maxLength: 8 }))
  .map(([h, t]) => h + t);
const bareName = fc.array(segment, { minLength: 1, maxLength: 4 }).map((s) => s.join('.'));
const serverId = fc
  .tuple(letter, fc.string({ unit: fc.constantFrom(...`${lower}0123456789_-`), maxLength: 10 }))
  .map(([h, t]) => h + t);

describe('isValidBareName', () => {
  it.each(['documents', 'documents.create', 'list_files', 'a', 'a1.b2_c.d', 'x_.y__z'])('accepts %j', (n) => {
    expect(isValidBareName(n)).toBe(true);
  });

  it.each([
    ['uppercase', 'Documents.create'],
    ['camelCase', 'getTinyImage'],
    ['dashes', 'get-env'],
    ['leading dot', '.documents'],
    ['trailing dot', 'documents.'],
    ['double dot', 'documents..create'],
    ['leading digit', '1documents'],
    ['segment with leading digit', 'documents.2create'],
    ['segment with leading underscore', 'documents._create'],
    ['empty', ''],
    ['space', 'documents create'],
    ['lone dot', '.'],
  ])('rejects %s (%j)', (_why, n) => {
    expect(isValidBareName(n)).toBe(false);
  });

  it('rejects non-strings', () => {
    for (const v of [undefined, null, 42, {}, ['a'], true]) expect(isValidBareName(v)).toBe(false);
  });
});

describe('isValidServerId', () => {
  it('accepts ids with dashes and underscores, rejects dots, uppercase, leading digit or dash, empty', () => {
    for (const id of ['markview', 'files', 'my-server', 'srv_2', 'a']) expect(isValidServerId(id)).toBe(true);
    for (const id of ['my.server', 'Files', '2files', '-files', '_files', '', 'a b', 42]) {
      expect(isValidServerId(id)).toBe(false);
    }
  });
});

describe('synthesizeNamespacedName / parseNamespacedName', () => {
  it('builds the seed example and parses it back', () => {
    expect(synthesizeNamespacedName('markview', 'documents.create')).toBe('markview.documents.create');
    expect(parseNamespacedName('markview.documents.create')).toEqual({
      pluginId: 'markview',
      bareName: 'documents.create',
    });
  });

  it('splits at the first separator: server ids have no dots', () => {
    expect(parseNamespacedName('my-srv.a.b.c')).toEqual({ pluginId: 'my-srv', bareName: 'a.b.c' });
  });

  it('supports another separator', () => {
    expect(synthesizeNamespacedName('files', 'list_files', '__')).toBe('files__list_files');
    expect(parseNamespacedName('files__list_files', '__')).toEqual({
      pluginId: 'files',
      bareName: 'list_files',
    });
  });

  it('property: parse(synthesize(id, name)) round-trips for every valid id and bare name', () => {
    fc.assert(
      fc.property(serverId, bareName, (id, name) => {
        const full = synthesizeNamespacedName(id, name);
        expect(full).toBe(`${id}.${name}`);
        expect(parseNamespacedName(full)).toEqual({ pluginId: id, bareName: name });
      }),
      { numRuns: 500 },
    );
  });

  it('property: with separator `__`, it round-trips or refuses up front (never a wrong split)', () => {
    fc.assert(
      fc.property(serverId, bareName, (id, name) => {
        let full: string;
        try {
          full = synthesizeNamespacedName(id, name, '__');
        } catch (err) {
          expect((err as RegistryError).code).toBe('invalid_name');
          return;
        }
        expect(parseNamespacedName(full, '__')).toEqual({ pluginId: id, bareName: name });
      }),
      { numRuns: 500 },
    );
  });

  it('synthesize throws invalid_name on a bad server id or bare name', () => {
    expect(codeOf(() => synthesizeNamespacedName('Markview', 'documents.create'))).toBe('invalid_name');
    expect(codeOf(() => synthesizeNamespacedName('mark.view', 'documents.create'))).toBe('invalid_name');
    expect(codeOf(() => synthesizeNamespacedName('', 'documents.create'))).toBe('invalid_name');
    expect(codeOf(() => synthesizeNamespacedName('markview', 'documents-create'))).toBe('invalid_name');
    expect(codeOf(() => synthesizeNamespacedName('markview', ''))).toBe('invalid_name');
    expect(codeOf(() => synthesizeNamespacedName('markview', 'docs', ''))).toBe('invalid_name');
    // `my__srv` contains the separator `__`: it would split back as `my` + `srv__docs`.
    expect(codeOf(() => synthesizeNamespacedName('my__srv', 'docs', '__'))).toBe('invalid_name');
    expect(() => synthesizeNamespacedName('Markview', 'x')).toThrow(/invalid server id "Markview"/);
    expect(() => synthesizeNamespacedName('markview', 'X')).toThrow(/invalid tool name "X"/);
  });

  it('parse throws invalid_name on input it cannot split or whose halves are invalid', () => {
    for (const bad of [
      'markview',
      '',
      '.documents',
      'markview.',
      'Markview.documents',
      'markview.Documents',
      '1a.b',
    ]) {
      expect(codeOf(() => parseNamespacedName(bad))).toBe('invalid_name');
    }
    expect(codeOf(() => parseNamespacedName('files.list', '__'))).toBe('invalid_name');
    expect(codeOf(() => parseNamespacedName(42 as unknown as string))).toBe('invalid_name');
    expect(() => parseNamespacedName('markview')).toThrow(/no "\." between server id and tool name/);
  });
});
