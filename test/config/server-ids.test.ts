import { describe, expect, it } from 'vitest';
import { assignServerIds, foreignServerId } from '../../src/config/server-ids.js';

describe('foreignServerId', () => {
  it.each([
    ['github', 'github'],
    ['GitHub', 'github'],
    ['my.server', 'my-server'],
    ['My Server (beta)', 'my-server-beta'],
    ['@scope/pkg', 'scope-pkg'],
    ['1password', 'mcp-1password'],
    ['_private', 'mcp-_private'],
    ['snake_case-ok', 'snake_case-ok'],
  ])('%j → %j', (key, id) => {
    expect(foreignServerId(key)).toBe(id);
  });

  it('gives up when nothing usable is left', () => {
    expect(foreignServerId('...')).toBeUndefined();
    expect(foreignServerId('日本')).toBeUndefined();
  });
});

describe('assignServerIds', () => {
  it('keeps valid ids, normalizes foreign keys and refuses invalid native ones', () => {
    const r = assignServerIds(
      [
        { key: 'files', foreign: false },
        { key: 'GitHub', foreign: true },
        { key: 'Bad.Id', foreign: false },
      ],
      '.',
    );
    expect(r.ids).toEqual(['files', 'github', undefined]);
    expect(r.problems).toEqual([
      {
        index: 2,
        message:
          'invalid server id "Bad.Id": expected [a-z][a-z0-9_-]* (lower-case letters, digits, _ and -, starting with a letter)',
      },
    ]);
  });

  it('refuses a normalization that would merge two servers, naming both', () => {
    const r = assignServerIds(
      [
        { key: 'my.server', foreign: true },
        { key: 'My Server', foreign: true },
        { key: 'my-server', foreign: true },
      ],
      '.',
    );
    expect(r.ids).toEqual(['my-server', undefined, undefined]);
    expect(r.problems.map((p) => p.message)).toEqual([
      'server id "my-server" (made from "My Server") is already used by "my.server"; rename one of them',
      'server id "my-server" is already used by "my.server"; rename one of them',
    ]);
  });

  it('with separator "__", refuses ids whose names would not split back', () => {
    const keys = ['a__b', 'c_', 'd_e', 'f'].map((key) => ({ key, foreign: false }));
    expect(assignServerIds(keys, '__').ids).toEqual([undefined, undefined, 'd_e', 'f']);
    expect(assignServerIds(keys, '.').ids).toEqual(['a__b', 'c_', 'd_e', 'f']);
  });
});
