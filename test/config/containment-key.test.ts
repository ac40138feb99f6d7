import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/config-error.js';
import { parseConfig } from '../../src/config/parse-config.js';

const config = (containment?: string) =>
  [
    ...(containment ? [`supervisor: { containment: ${containment} }`] : []),
    'servers:',
    '  a: { command: node }',
    '',
  ].join('\n');

describe('supervisor.containment', () => {
  it('defaults to auto and takes each mechanism by name', () => {
    expect(parseConfig(config()).supervisor.containment).toBe('auto');
    for (const kind of ['cgroup', 'pidns', 'pgroup', 'auto'])
      expect(parseConfig(config(kind)).supervisor.containment).toBe(kind);
  });

  it('names an unknown mechanism at its line', () => {
    let err: unknown;
    try {
      parseConfig(config('jail'), { source: 'fleet.yaml' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).message).toMatch(
      /^fleet\.yaml:1:\d+ supervisor\.containment: .*auto.*cgroup.*pidns.*pgroup/m,
    );
  });
});
