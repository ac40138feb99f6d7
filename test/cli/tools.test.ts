import { appendFileSync } from 'node:fs';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { allGone, cliProcesses, ensureBuilt, fixturePids, pidOf, writeFixtureConfig } from './helpers.js';

const cli = cliProcesses();
beforeAll(ensureBuilt, 120_000);
afterEach(cli.reap);

describe('mcp-supervisor tools', () => {
  it('lists each server’s namespaced tools with the scopes each needs, and stops what it started', async () => {
    const dir = cli.tempDir();
    const config = writeFixtureConfig(dir, [
      {
        id: 'fx',
        flags: ['--tools', '2'],
        extra:
          '    scopes_required: [notes.read]\n    tools: [{ name: tool_1, scopes_required: [notes.write] }]',
      },
    ]);
    const r = await cli.runCli(['tools', config, '--trust-all']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^SERVER {2}STATE {2}TOOL +SCOPES$/);
    const cells = lines.slice(1).map((l) => l.split(/ {2,}/));
    expect(cells).toContainEqual(['fx', 'ready', 'fx.tool_1', 'notes.read,notes.write']);
    expect(cells).toContainEqual(['fx', 'ready', 'fx.tool_2', 'notes.read']);
    expect(cells).toContainEqual(['fx', 'ready', 'fx.echo', 'notes.read']);
    // In name order, every one of them with at least the server's floor.
    const names = cells.map((c) => c[2]!);
    expect(names).toEqual([...names].sort());
    expect(cells.every((c) => c[3]!.startsWith('notes.read'))).toBe(true);
    expect(await allGone([await pidOf(dir, 'fx')])).toBe(true);
  });

  it('lists servers that are untrusted, fail to start or are disabled with their reason (exit 1), also as JSON', async () => {
    const dir = cli.tempDir();
    const config = writeFixtureConfig(dir, [{ id: 'fx' }, { id: 'nt' }]);
    appendFileSync(
      config,
      [
        '  gone:',
        '    command: no-such-server-xyz',
        '    restart: always',
        '  off:',
        '    command: no-such-server-xyz',
        '    disabled: true',
        '',
      ].join('\n'),
    );
    const text = await cli.runCli(['tools', config, '--trust', 'fx,gone']);
    expect(text.code).toBe(1);
    const lines = text.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^SERVER {2}STATE {6}TOOL +SCOPES$/);
    expect(lines).toContain(`fx      ready      ${'fx.echo'.padEnd(lines[0]!.indexOf('SCOPES') - 19)}-`);
    expect(lines.slice(-3)).toEqual([
      'nt      untrusted  not trusted: pass --trust nt or --trust-all, or approve it on a terminal',
      expect.stringMatching(
        /^gone {4}stopped {4}spawn failed: command "no-such-server-xyz" not found on PATH/,
      ),
      'off     disabled   disabled: not started',
    ]);
    // The refusal is also logged, with the flag that would have allowed it.
    expect(text.stderr).toMatch(/level=warn .*pass --trust nt or --trust-all/);

    const json = await cli.runCli(['tools', config, '--trust', 'fx,gone', '--json']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toEqual({
      source: config,
      servers: [
        {
          id: 'fx',
          state: 'ready',
          tools: expect.arrayContaining([{ name: 'fx.echo', tool: 'echo', scopes: [] }]),
        },
        { id: 'nt', state: 'untrusted', tools: [], reason: 'untrusted', message: expect.any(String) },
        { id: 'gone', state: 'stopped', tools: [], reason: 'spawn_failed', message: expect.any(String) },
        { id: 'off', state: 'disabled', tools: [], reason: 'disabled', message: 'disabled: not started' },
      ],
    });
    expect(await allGone(fixturePids(dir))).toBe(true);
  });

  it('refuses a --trust id the config does not have, before starting anything', async () => {
    const dir = cli.tempDir();
    const config = writeFixtureConfig(dir, [{ id: 'fx' }]);
    const r = await cli.runCli(['tools', config, '--trust', 'fz']);
    expect(r).toMatchObject({ code: 2, stdout: '' });
    expect(r.stderr).toBe("mcp-supervisor: --trust names unknown server 'fz' (servers: fx)\n");
  });
});
