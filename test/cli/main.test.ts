import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cliProcesses, ensureBuilt, ROOT } from './helpers.js';

const cli = cliProcesses();
beforeAll(ensureBuilt, 120_000);
afterEach(cli.reap);

const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

/** A stderr that is exactly one line and carries no stack frame. */
function expectOneLine(stderr: string): void {
  expect(stderr.endsWith('\n')).toBe(true);
  expect(stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(stderr).not.toMatch(/\n\s+at /);
}

describe('mcp-supervisor program', () => {
  it('prints the package version with --version and -V', async () => {
    for (const flag of ['--version', '-V']) {
      const r = await cli.runCli([flag]);
      expect(r).toMatchObject({ code: 0, stdout: `${version}\n`, stderr: '' });
    }
  });

  it('lists every command in --help and exits 0', async () => {
    const r = await cli.runCli(['--help']);
    expect(r.code).toBe(0);
    for (const cmd of ['init', 'run', 'serve', 'call', 'check', 'tools', 'trust', 'secret', 'completion'])
      expect(r.stdout).toMatch(new RegExp(`^  ${cmd} `, 'm'));
  });

  it('has --help on every command, naming its own flags', async () => {
    const cases: Array<[string[], string]> = [
      [['run'], '--ui [port]'],
      [['serve'], '--trust-all'],
      [['call'], '--timeout <duration>'],
      [['check'], '<config>'],
      [['trust'], 'revoke'],
      [['trust', 'list'], '--store <path>'],
      [['trust', 'add'], '<id>'],
      [['trust', 'revoke'], '<id>'],
      [['secret'], 'delete'],
      [['secret', 'set'], '<service/account>'],
      [['secret', 'delete'], '<service/account>'],
    ];
    for (const [cmd, needle] of cases) {
      const r = await cli.runCli([...cmd, '--help']);
      expect(r.code, cmd.join(' ')).toBe(0);
      expect(r.stdout).toContain(`Usage: mcp-supervisor ${cmd.join(' ')}`);
      expect(r.stdout).toContain(needle);
    }
  });

  it('rejects an unknown flag with one line on stderr and exit 2', async () => {
    const r = await cli.runCli(['run', 'x.yaml', '--bogus']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expectOneLine(r.stderr);
    expect(r.stderr).toBe("mcp-supervisor: unknown option '--bogus'\n");
  });

  it('folds a suggestion into the same one line', async () => {
    const r = await cli.runCli(['run', 'x.yaml', '--trust-al']);
    expect(r.code).toBe(2);
    expectOneLine(r.stderr);
    expect(r.stderr).toContain('--trust-all');
  });

  it('treats a missing argument, an unknown command, a bad port and no command at all as usage errors', async () => {
    for (const args of [['check'], ['frobnicate'], ['run', 'x.yaml', '--ui', 'http'], ['call', 'x.yaml']]) {
      const r = await cli.runCli(args);
      expect(r.code, args.join(' ')).toBe(2);
      expectOneLine(r.stderr);
    }
    const bare = await cli.runCli([]);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain('Usage: mcp-supervisor');
  });

  it('reports a missing config file in one line with exit 2, for every command that reads one', async () => {
    for (const cmd of ['run', 'serve', 'check']) {
      const r = await cli.runCli([cmd, 'no/such/fleet.yaml']);
      expect(r.code, cmd).toBe(2);
      expect(r.stderr).toBe("mcp-supervisor: cannot read config 'no/such/fleet.yaml': no such file\n");
    }
  });
});
