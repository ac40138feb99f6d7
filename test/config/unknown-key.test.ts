import { describe, expect, it } from 'vitest';
import { NativeDocumentSchema } from '../../src/config/schema.js';
import { knownKeysAt, unknownKeyMessage } from '../../src/config/unknown-key.js';

describe('knownKeysAt', () => {
  it('follows records, arrays, defaults and preprocessing down to the object at the path', () => {
    expect(knownKeysAt(NativeDocumentSchema, [])).toEqual(['supervisor', 'serve', 'servers', 'inputs']);
    expect(knownKeysAt(NativeDocumentSchema, ['supervisor', 'limit'])).toEqual(['maxRestarts', 'window']);
    expect(knownKeysAt(NativeDocumentSchema, ['servers', 'x', 'restart'])).toEqual([
      'policy',
      'backoff',
      'limit',
    ]);
    expect(knownKeysAt(NativeDocumentSchema, ['servers', 'x', 'restart', 'backoff'])).toEqual([
      'initial',
      'multiplier',
      'max',
      'jitter',
      'resetAfter',
    ]);
    expect(knownKeysAt(NativeDocumentSchema, ['servers', 'x', 'tools', 3])).toEqual([
      'name',
      'description',
      'input_schema',
      'output_schema',
      'scopes_required',
    ]);
  });

  it('is undefined where no object schema is', () => {
    expect(knownKeysAt(NativeDocumentSchema, ['servers', 'x', 'timeouts', 'call'])).toBeUndefined();
    expect(knownKeysAt(NativeDocumentSchema, ['nope'])).toBeUndefined();
  });
});

describe('unknownKeyMessage', () => {
  const at = (path: string[], key: string) => unknownKeyMessage(NativeDocumentSchema, path, key);

  it('suggests the key that was meant: swaps, case, snake/camel confusions', () => {
    expect(at(['servers', 'x'], 'restrat')).toBe('unknown key (did you mean "restart"?)');
    expect(at(['servers', 'x'], 'Command')).toBe('unknown key (did you mean "command"?)');
    expect(at(['servers', 'x'], 'inherit_env')).toBe('unknown key (did you mean "inheritEnv"?)');
    expect(at(['servers', 'x'], 'scopesRequired')).toBe('unknown key (did you mean "scopes_required"?)');
    expect(at(['servers', 'x', 'health'], 'intervall')).toBe('unknown key (did you mean "interval"?)');
  });

  it('lists the accepted keys when nothing is close', () => {
    expect(at(['supervisor', 'limit'], 'banana')).toBe('unknown key (expected one of: maxRestarts, window)');
  });

  it('explains the keys of other formats that cannot work here', () => {
    expect(at(['servers', 'x'], 'envFile')).toBe(
      'unknown key: envFile is not supported; list the variables under env',
    );
  });
});

describe('unknownKeyMessage: other tools’ spellings', () => {
  it.each([
    ['cmd', 'command'],
    ['argv', 'args'],
    ['environment', 'env'],
    ['working_dir', 'cwd'],
    ['enabled', 'disabled'],
  ])('%s → %s', (key, meant) => {
    expect(unknownKeyMessage(NativeDocumentSchema, ['servers', 'x'], key)).toBe(
      `unknown key (did you mean "${meant}"?)`,
    );
  });
});

describe('unknownKeyMessage: keys that name Object.prototype members', () => {
  it.each(['constructor', 'toString', '__proto__'])('treats %s as a plain unknown key', (key) => {
    expect(unknownKeyMessage(NativeDocumentSchema, ['servers', 'x'], key)).toMatch(
      /^unknown key \((did you mean|expected one of)/,
    );
  });
});
