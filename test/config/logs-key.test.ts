import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/config-error.js';
import { parseConfig } from '../../src/config/parse-config.js';

const config = (logs?: string) =>
  [...(logs ? ['supervisor:', `  logs: ${logs}`] : []), 'servers:', '  a: { command: node }', ''].join('\n');

function problem(text: string): string {
  try {
    parseConfig(text, { source: 'fleet.yaml' });
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).message;
  }
  throw new Error('parsed');
}

describe('supervisor.logs', () => {
  it('keeps 1 MiB per server by default, no files', () => {
    expect(parseConfig(config()).supervisor.logs).toEqual({ ring: 1024 * 1024 });
  });

  it('takes a ring size and rotated files with units', () => {
    expect(parseConfig(config('{ ring: 64KiB, files: { keep: 3, size: 1MiB } }')).supervisor.logs).toEqual({
      ring: 64 * 1024,
      files: { keep: 3, size: 1024 * 1024 },
    });
  });

  it('names a bad value at its line and field', () => {
    expect(problem(config('{ ring: lots }'))).toMatch(/^fleet\.yaml:2:\d+ supervisor\.logs\.ring: /m);
    expect(problem(config('{ ring: 10 }'))).toMatch(/^fleet\.yaml:2:\d+ supervisor\.logs\.ring: .*1024/m);
    expect(problem(config('{ files: { keep: 0, size: 1MiB } }'))).toMatch(
      /^fleet\.yaml:2:\d+ supervisor\.logs\.files\.keep: must be at least 1/m,
    );
    expect(problem(config('{ files: { keep: 2 } }'))).toMatch(/supervisor\.logs\.files\.size: /);
    expect(problem(config('{ rings: 1MiB }'))).toMatch(/^fleet\.yaml:2:\d+ supervisor\.logs.*rings/m);
  });
});
