import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatLogLine } from '../../../src/cli/output/logfmt.js';

/** A small logfmt reader: enough to check that what is written reads back. */
function parseLogfmt(line: string): Record<string, string> {
  const out: Record<string, string> = {};
  const re = /([^\s=]+)=("(?:[^"\\]|\\.)*"|\S*)/g;
  for (const m of line.matchAll(re))
    out[m[1]!] = m[2]!.startsWith('"') ? (JSON.parse(m[2]!) as string) : m[2]!;
  return out;
}

describe('formatLogLine', () => {
  it('writes bare values bare and quotes the rest', () => {
    expect(
      formatLogLine('logfmt', { level: 'info', server: 'fx', code: 1, signal: null, msg: 'a b', empty: '' }),
    ).toBe('level=info server=fx code=1 signal=null msg="a b" empty=""');
  });

  it('writes a list as a JSON array in json, and its items joined by commas in logfmt', () => {
    const fields = { event: 'tools', added: ['fx.echo', 'fx.add'] };
    expect(JSON.parse(formatLogLine('json', fields))).toEqual(fields);
    expect(formatLogLine('logfmt', fields)).toBe('event=tools added=fx.echo,fx.add');
    expect(formatLogLine('logfmt', { names: ['a b', 'c'] })).toBe('names="a b,c"');
  });

  it('drops undefined fields', () => {
    expect(formatLogLine('logfmt', { a: 'x', b: undefined })).toBe('a=x');
    expect(formatLogLine('json', { a: 'x', b: undefined })).toBe('{"a":"x"}');
  });

  it('always writes exactly one line that reads back to the same strings', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.stringMatching(/^[a-z_]{1,8}$/), fc.string()), (fields) => {
        for (const format of ['logfmt', 'json'] as const) {
          const line = formatLogLine(format, fields);
          expect(line).not.toMatch(/[\n\r]/);
          const back = format === 'json' ? (JSON.parse(line) as Record<string, string>) : parseLogfmt(line);
          expect(back).toEqual(fields);
        }
      }),
    );
  });
});
