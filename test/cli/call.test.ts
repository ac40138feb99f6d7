import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { allGone, cliProcesses, ensureBuilt, pidOf, writeFixtureConfig } from './helpers.js';

const cli = cliProcesses();
beforeAll(ensureBuilt, 120_000);
afterEach(cli.reap);

describe('mcp-supervisor call', () => {
  it('prints the flattened result on stdout, exits 0 and leaves no process', async () => {
    const dir = cli.tempDir();
    const config = writeFixtureConfig(dir, [{ id: 'fx' }]);
    const r = await cli.runCli(['call', config, 'fx.echo', '{"text":"hello there"}', '--trust-all']);
    expect(r.stderr).toBe('');
    expect(r).toMatchObject({ code: 0, stdout: 'hello there\n' });
    expect(await allGone([await pidOf(dir, 'fx')])).toBe(true);
  });

  it('flattens non-text blocks into placeholders', async () => {
    const dir = cli.tempDir();
    const config = writeFixtureConfig(dir, [{ id: 'fx' }]);
    const r = await cli.runCli(['call', config, 'fx.image', '{"bytes":2048}', '--trust', 'fx']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('[image: image/png, 2.0 KiB]\n');
  });

  it('exits 1 when the result is an ERROR: (a tool error, an unknown tool)', async () => {
    const dir = cli.tempDir();
    const config = writeFixtureConfig(dir, [{ id: 'fx' }]);
    const failed = await cli.runCli(['call', config, 'fx.fail', '{"message":"nope"}', '--trust-all']);
    expect(failed).toMatchObject({ code: 1, stdout: 'ERROR: nope\n' });
    const unknown = await cli.runCli(['call', config, 'fx.nothing', '--trust-all']);
    expect(unknown.code).toBe(1);
    expect(unknown.stdout).toMatch(/^ERROR: unknown tool 'fx\.nothing'/);
    expect(unknown.stderr).toMatch(/^available tools: .*fx\.echo/m);
  });

  it('honours --timeout', async () => {
    const dir = cli.tempDir();
    const config = writeFixtureConfig(dir, [{ id: 'fx' }]);
    const r = await cli.runCli(['call', config, 'fx.hang', '--timeout', '300ms', '--trust-all']);
    expect(r.code).toBe(1);
    // The config's call timeout is 5 s: the message names the one given on the command line.
    expect(r.stdout).toBe("ERROR: tool 'fx.hang' timed out after 300 ms\n");
  });

  it('rejects bad JSON args in one line with exit 2, before starting anything', async () => {
    const dir = cli.tempDir();
    const config = writeFixtureConfig(dir, [{ id: 'fx' }]);
    for (const bad of ['{text:1}', '[1,2]', '"str"']) {
      const r = await cli.runCli(['call', config, 'fx.echo', bad, '--trust-all']);
      expect(r.code, bad).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(
        /^mcp-supervisor: json-args (is not valid JSON|must be a JSON object)[^\n]*\n$/,
      );
    }
    await expect(pidOf(dir, 'fx', 300)).rejects.toThrow(/never appeared/);
  });

  it('rejects a --trust id the config does not have (exit 2)', async () => {
    const dir = cli.tempDir();
    const config = writeFixtureConfig(dir, [{ id: 'fx' }]);
    const r = await cli.runCli(['call', config, 'fx.echo', '--trust', 'fz']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("mcp-supervisor: --trust names unknown server 'fz' (servers: fx)\n");
  });
});
