// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} references are config text here, written literally on purpose
import { describe, expect, it } from 'vitest';
import { diffConfigs } from '../../src/config/config-diff.js';
import { parseConfig } from '../../src/config/parse-config.js';

const parse = (text: string, env: Record<string, string> = {}) =>
  parseConfig(text, { source: 'c.yaml', env, baseDir: '/base' });

const base = `
supervisor: { strategy: one_for_one }
servers:
  a: { command: node, args: [a.js] }
  b: { command: node, args: [b.js] }
  c: { command: node, args: [c.js] }
`;

describe('diffConfigs: servers by their effective definition', () => {
  it('names each server unchanged, changed, added or removed, in the new order then the removed', () => {
    const next = parse(`
supervisor: { strategy: one_for_one }
servers:
  n: { command: node, args: [n.js] }
  a: { command: node, args: [a.js] }
  b: { command: node, args: [b.js, --verbose] }
`);
    const diff = diffConfigs(parse(base), next);
    expect(diff.servers).toEqual([
      { id: 'n', change: 'added' },
      { id: 'a', change: 'unchanged' },
      { id: 'b', change: 'changed' },
      { id: 'c', change: 'removed' },
    ]);
    expect(diff.order).toEqual(['n', 'a', 'b']);
    expect([diff.applied, diff.needsRestart]).toEqual([[], []]);
  });

  it('a moved server, or the same text reloaded, is unchanged', () => {
    const moved = parse(
      base.replace('  a: { command: node, args: [a.js] }\n', '') + '  a: { command: node, args: [a.js] }\n',
    );
    expect(diffConfigs(parse(base), moved).servers.every((s) => s.change === 'unchanged')).toBe(true);
  });

  it('a filled-in default that moved is a change: timeouts, restart policy, env from ${VAR}, disabled', () => {
    const changes = [
      'a: { command: node, args: [a.js], timeouts: { call: 5s } }',
      'a: { command: node, args: [a.js], restart: { policy: always } }',
      'a: { command: node, args: [a.js], env: { T: "${T}" } }',
      'a: { command: node, args: [a.js], disabled: true }',
    ];
    const before = parse(base.replace('a: { command: node, args: [a.js] }', changes[2]!), { T: 'one' });
    const after = parse(base.replace('a: { command: node, args: [a.js] }', changes[2]!), { T: 'two' });
    expect(diffConfigs(before, after).servers[0]).toEqual({ id: 'a', change: 'changed' });
    for (const c of [changes[0]!, changes[1]!, changes[3]!]) {
      const diff = diffConfigs(parse(base), parse(base.replace('a: { command: node, args: [a.js] }', c)));
      expect(diff.servers.filter((s) => s.change !== 'unchanged')).toEqual([{ id: 'a', change: 'changed' }]);
    }
  });

  it('supervisor keys: strategy and limit are taken over, separator and containment need a restart', () => {
    const next = parse(`
supervisor: { strategy: rest_for_one, separator: "__", containment: pgroup, limit: { maxRestarts: 2, window: 1s } }
servers:
  a: { command: node, args: [a.js] }
  b: { command: node, args: [b.js] }
  c: { command: node, args: [c.js] }
`);
    const diff = diffConfigs(parse(base), next);
    expect(diff.applied).toEqual(['strategy', 'limit']);
    expect(diff.needsRestart).toEqual(['separator', 'containment']);
  });
});
