// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} references are the subject of these tests, written literally on purpose
import { describe, expect, it } from 'vitest';
import { interpolateString, interpolateTree } from '../../src/config/interpolate.js';

const env = { TOKEN: 'abc', EMPTY: '', MODE: 'prod' };

describe('interpolateString', () => {
  it.each([
    ['plain', 'plain'],
    ['${TOKEN}', 'abc'],
    ['Bearer ${TOKEN}!', 'Bearer abc!'],
    ['${MODE:-dev}', 'prod'],
    ['${UNSET:-dev}', 'dev'],
    ['${EMPTY:-dev}', 'dev'],
    ['${EMPTY}', ''],
    ['${UNSET:-}', ''],
    ['${UNSET:-a:b-c d}', 'a:b-c d'],
    ['${env:TOKEN}', 'abc'],
    ['$$', '$'],
    ['$${TOKEN}', '${TOKEN}'],
    ['$$${TOKEN}', '$abc'],
    ['$$$${TOKEN}', '$${TOKEN}'],
    ['cost: $5', 'cost: $5'],
    ['$HOME stays', '$HOME stays'],
    ['end$', 'end$'],
    ['${TOKEN}${MODE}', 'abcprod'],
  ])('%j → %j', (input, output) => {
    expect(interpolateString(input, env)).toEqual({ value: output, issues: [], deferred: false });
  });

  it('reports an unset variable by name, with the reference to locate it', () => {
    expect(interpolateString('x ${NOPE} y', env)).toEqual({
      value: 'x  y',
      issues: [
        {
          ref: '${NOPE}',
          message: 'environment variable NOPE is not set (write ${NOPE:-value} to give a default)',
        },
      ],
      deferred: false,
    });
  });

  it('reports every problem of one string', () => {
    const r = interpolateString('${A}${input:key}${bad name}${B', env);
    expect(r.issues.map((i) => i.ref)).toEqual(['${A}', '${input:key}', '${bad name}', '${']);
    expect(r.issues[1]!.message).toBe(
      '${input:key}: VS Code input variables are not supported; write the value here or use ${VAR} from the environment',
    );
    expect(r.issues[2]!.message).toBe(
      'invalid reference "${bad name}": expected ${NAME} or ${NAME:-default}',
    );
    expect(r.issues[3]!.message).toBe(
      'unterminated "${": expected ${NAME} or ${NAME:-default} (write $$ for a literal $)',
    );
  });

  it('treats a variable that is set to the empty string as set', () => {
    expect(interpolateString('[${EMPTY}]', { EMPTY: '' }).issues).toEqual([]);
    expect(interpolateString('[${EMPTY}]', { EMPTY: undefined }).issues).toHaveLength(1);
  });
});

describe('interpolateTree', () => {
  it('expands every string scalar, never keys, and keeps other scalars', () => {
    const r = interpolateTree(
      { '${TOKEN}': '${TOKEN}', list: ['${MODE}', 3, true, null], n: { m: '$$' } },
      env,
      ['x'],
    );
    expect(r).toEqual({
      value: { '${TOKEN}': 'abc', list: ['prod', 3, true, null], n: { m: '$' } },
      issues: [],
      deferred: [],
    });
  });

  it('gives each problem the path of its scalar', () => {
    const r = interpolateTree({ a: [{ b: '${X}' }] }, {}, ['servers']);
    expect(r.issues).toEqual([
      {
        path: ['servers', 'a', 0, 'b'],
        ref: '${X}',
        message: 'environment variable X is not set (write ${X:-value} to give a default)',
      },
    ]);
  });

  it('keeps a __proto__ key as a plain key', () => {
    const input = JSON.parse('{"__proto__": {"polluted": "${TOKEN}"}}') as unknown;
    const out = interpolateTree(input, env, []).value as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.keys(out)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('reports a value that contains itself instead of recursing forever', () => {
    const cyclic: unknown[] = ['a'];
    cyclic.push(cyclic);
    const r = interpolateTree({ args: cyclic }, env, []);
    expect(r.value).toEqual({ args: ['a', null] });
    expect(r.issues).toEqual([
      { path: ['args', 1], ref: '', message: 'recursive alias: this value contains itself' },
    ]);
  });

  it('shares nothing with its input, so a shared alias can be expanded twice', () => {
    const shared = { v: '${TOKEN}' };
    const r = interpolateTree({ a: shared, b: shared }, env, []);
    expect(r.value).toEqual({ a: { v: 'abc' }, b: { v: 'abc' } });
    expect(shared.v).toBe('${TOKEN}');
  });
});

describe('secrets read at start', () => {
  it('keeps ${file:…} and ${keyring:…} as written (a relative path made absolute), doubling every other $', () => {
    const env = { TOKEN: 'a$b' };
    expect(interpolateString('Bearer ${file:tok.txt}', env, '/etc/app')).toEqual({
      value: 'Bearer ${file:/etc/app/tok.txt}',
      issues: [],
      deferred: true,
    });
    expect(interpolateString('$$${TOKEN}:${keyring:svc/me}', env, '/x')).toEqual({
      value: '$$a$$b:${keyring:svc/me}',
      issues: [],
      deferred: true,
    });
    // An escaped reference is text, not a secret: nothing is read for it at start.
    expect(interpolateString('$${file:tok.txt}', env, '/x')).toEqual({
      value: '${file:tok.txt}',
      issues: [],
      deferred: false,
    });
  });

  it('reports a malformed one', () => {
    expect(interpolateString('${keyring:svc}', {}, '/x').issues).toEqual([
      {
        ref: '${keyring:svc}',
        message: '${keyring:svc}: expected ${keyring:SERVICE/ACCOUNT}, both parts non-empty',
      },
    ]);
    expect(interpolateString('${file:}', {}, '/x').issues[0]?.message).toBe(
      '${file:}: expected ${file:PATH}',
    );
  });
});
