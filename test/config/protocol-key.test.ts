import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/config-error.js';
import { parseConfig } from '../../src/config/parse-config.js';

const config = (protocol?: string) =>
  ['servers:', `  a: { command: node${protocol === undefined ? '' : `, protocol: ${protocol}`} }`, ''].join(
    '\n',
  );

describe('protocol: per server', () => {
  it('is absent for auto (the default) and pins either era, quoted or as YAML reads a bare date', () => {
    expect(parseConfig(config()).servers[0]!.protocol).toBeUndefined();
    expect(parseConfig(config('auto')).servers[0]!.protocol).toBeUndefined();
    expect(parseConfig(config('2026-07-28')).servers[0]!.protocol).toBe('2026-07-28');
    expect(parseConfig(config('"2025-11-25"')).servers[0]!.protocol).toBe('2025-11-25');
  });

  it('pins 2026-07-28 for a url server too', () => {
    const text = ['servers:', '  r: { url: "http://127.0.0.1:1/mcp", protocol: 2026-07-28 }', ''].join('\n');
    expect(parseConfig(text).servers[0]!.protocol).toBe('2026-07-28');
  });

  it('names an unknown version at its line', () => {
    let message = 'no error';
    try {
      parseConfig(config('2024-11-05'), { source: 'fleet.yaml' });
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      message = (e as ConfigError).message;
    }
    expect(message).toMatch(
      /^fleet\.yaml:2:\d+ servers\.a\.protocol: expected one of: auto, 2025-11-25, 2026-07-28/m,
    );
  });
});
