import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/config-error.js';
import { loadConfig, readConfig } from '../../src/config/parse-config.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'mcp-supervisor-read-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('reading a config with problems', () => {
  it("a duplicate key does not hide the file's other problems, nor a manifest's", async () => {
    writeFileSync(join(dir, 'm.yaml'), 'provides:\n  scopes_requird: []\n');
    const file = join(dir, 'fleet.yaml');
    writeFileSync(
      file,
      [
        'supervisor:',
        '  strategy: one_for_some',
        'servers:',
        '  a: { command: x, manifest: m.yaml }',
        '  a: { command: y, manifest: m.yaml }',
        '  b: { command: x, restart: { policy: sometimes } }',
        '',
      ].join('\n'),
    );
    const err = await loadConfig(file).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).problems.map((p) => [p.source, p.line, p.path, p.code])).toEqual([
      [file, 2, 'supervisor.strategy', undefined],
      [file, 5, '', 'DUPLICATE_KEY'],
      [file, 6, 'servers.b.restart.policy', undefined],
      [join(dir, 'm.yaml'), 2, 'provides.scopes_requird', 'MANIFEST_INVALID'],
    ]);
  });

  it('keeps the servers that are valid, with where each stands, beside the problems', () => {
    const text = 'servers:\n  bad: { command: x, restart: { policy: sometimes } }\n  good:\n    command: y\n';
    const reading = readConfig(text, { source: 'fleet.yaml', baseDir: dir });
    expect(reading.problems.map((p) => p.path)).toEqual(['servers.bad.restart.policy']);
    expect(reading.config?.servers.map((s) => s.id)).toEqual(['good']);
    expect(reading.serverPaths).toEqual([['servers', 'good']]);
    expect(reading.locate(['servers', 'good', 'command'])).toEqual({ line: 4, col: 5 });
  });
});
