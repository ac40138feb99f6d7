// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} references are written literally on purpose
import { describe, expect, it } from 'vitest';
import { summarize } from '../../src/cli/check.js';
import { launchProblems } from '../../src/config/launch-check.js';
import { readConfig } from '../../src/config/parse-config.js';

describe('check of a url server', () => {
  it('prints its URL and masked headers, and looks for no command on PATH', async () => {
    const text = [
      'servers:',
      '  web:',
      '    url: https://mcp.example.com/mcp',
      '    headers: { Authorization: "Bearer ${API_TOKEN}", X-Api-Key: k-9f8e7d6c5b4a3921 }',
      '',
    ].join('\n');
    const reading = readConfig(text, { source: 'fleet.yaml', env: { API_TOKEN: 'tok-7f3a9c2e51d04b88' } });
    expect(reading.problems).toEqual([]);
    const config = reading.config!;
    // An empty PATH: a command server would be reported as not found; a url server has none to find.
    expect(launchProblems(reading, { PATH: '' })).toEqual([]);
    const lines = summarize(config, 'pgroup');
    expect(lines[1]).toBe(
      '  web  https://mcp.example.com/mcp (headers Authorization: Bearer ${API_TOKEN}, X-Api-Key: ***)',
    );
    expect(lines[2]).toContain('remote (reconnected, not spawned)');
    expect(lines.join('\n')).not.toContain('tok-7f3a9c2e51d04b88');
  });
});
