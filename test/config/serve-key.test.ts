import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/config-error.js';
import { parseConfig } from '../../src/config/parse-config.js';

const config = (serve?: string, container = 'servers') =>
  [...(serve ? [`serve: ${serve}`] : []), `${container}:`, '  a: { command: node }', ''].join('\n');

/** The message of the ConfigError `text` raises, or a note that it raised none. */
function problem(text: string): string {
  try {
    parseConfig(text, { source: 'fleet.yaml' });
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as ConfigError).message;
  }
  return 'no error';
}

describe('serve.maxResultBytes', () => {
  it('is absent unless written, and takes a size in bytes or with a unit', () => {
    expect(parseConfig(config()).serve).toBeUndefined();
    expect(parseConfig(config('{ maxResultBytes: 2MiB }')).serve).toEqual({
      maxResultBytes: 2 * 1024 * 1024,
    });
    expect(parseConfig(config('{ maxResultBytes: 4096 }')).serve).toEqual({ maxResultBytes: 4096 });
    expect(parseConfig(config('{}')).serve).toBeUndefined();
  });

  it('is read from an mcpServers file too', () => {
    expect(parseConfig(config('{ maxResultBytes: 1KiB }', 'mcpServers')).serve).toEqual({
      maxResultBytes: 1024,
    });
  });

  it('names a bad size, a too small one and an unknown key at their line', () => {
    expect(problem(config('{ maxResultBytes: lots }'))).toMatch(
      /^fleet\.yaml:1:\d+ serve\.maxResultBytes: /m,
    );
    expect(problem(config('{ maxResultBytes: 100 }'))).toMatch(
      /^fleet\.yaml:1:\d+ serve\.maxResultBytes: .*256/m,
    );
    expect(problem(config('{ maxResultByte: 1MiB }'))).toMatch(/^fleet\.yaml:1:\d+ serve.*maxResultByte/m);
    expect(problem(config('[1]'))).toMatch(/^fleet\.yaml:1:\d+ serve: expected a mapping, received a list/m);
  });
});

describe('serve.maxSessions', () => {
  it('takes a whole number of at least 1, and names a bad one at its line', () => {
    expect(parseConfig(config('{ maxSessions: 2 }')).serve).toEqual({ maxSessions: 2 });
    expect(problem(config('{ maxSessions: 0 }'))).toMatch(
      /^fleet\.yaml:1:\d+ serve\.maxSessions: must be at least 1$/m,
    );
    expect(problem(config('{ maxSessions: 1.5 }'))).toMatch(
      /^fleet\.yaml:1:\d+ serve\.maxSessions: must be a whole number$/m,
    );
    expect(problem(config('{ maxSessions: many }'))).toMatch(/^fleet\.yaml:1:\d+ serve\.maxSessions: /m);
  });
});

describe('serve.drain', () => {
  it('is absent unless written; a key left out takes its default (delay 5s, timeout 30s)', () => {
    expect(parseConfig(config('{ drain: { delay: 300ms, timeout: 1m } }')).serve).toEqual({
      drain: { delayMs: 300, timeoutMs: 60_000 },
    });
    expect(parseConfig(config('{ drain: { delay: 0 } }')).serve).toEqual({
      drain: { delayMs: 0, timeoutMs: 30_000 },
    });
    expect(parseConfig(config('{ drain: {} }')).serve).toEqual({
      drain: { delayMs: 5000, timeoutMs: 30_000 },
    });
  });

  it('names a duration without a unit, a bad one and an unknown key at their line', () => {
    expect(problem(config('{ drain: { delay: 5 } }'))).toMatch(
      /^fleet\.yaml:1:\d+ serve\.drain\.delay: duration 5 has no unit/m,
    );
    expect(problem(config('{ drain: { timeout: soon } }'))).toMatch(
      /^fleet\.yaml:1:\d+ serve\.drain\.timeout: invalid duration "soon"/m,
    );
    expect(problem(config('{ drain: { grace: 1s } }'))).toMatch(/^fleet\.yaml:1:\d+ serve\.drain.*grace/m);
  });
});
