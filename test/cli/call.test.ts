import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { allGone, cliProcesses, ensureBuilt, fixturePids, pidOf, writeFixtureConfig } from './helpers.js';

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

  it('--help says it starts only the server that owns the tool', async () => {
    const r = await cli.runCli(['call', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout.replace(/\s+/g, ' ')).toContain('start only the server that owns the tool');
  });

  it("names the nearest tools for a mistyped one: among the server's tools, or on the nearest server id", async () => {
    const dir = cli.tempDir();
    const config = writeFixtureConfig(dir, [{ id: 'fx' }]);
    const typo = await cli.runCli(['call', config, 'fx.ecoh', '{"text":"x"}', '--trust-all']);
    expect(typo.code).toBe(1);
    expect(typo.stdout).toMatch(/^ERROR: unknown tool 'fx\.ecoh'/);
    expect(typo.stderr).toMatch(/^did you mean 'fx\.echo'\?$/m);
    const server = await cli.runCli(['call', config, 'fz.echo', '--trust-all']);
    expect(server).toMatchObject({ code: 1, stdout: "ERROR: unknown tool 'fz.echo': no server owns it\n" });
    expect(server.stderr).toBe("did you mean 'fx.echo'?\na tool is named <server>.<tool>; servers: fx\n");
    const far = await cli.runCli(['call', config, 'fx.zzzzzzzz', '--trust-all']);
    expect(far.stderr).not.toMatch(/did you mean/);
  });

  it('decides from the outcome, not the text: a tool that answers ERROR: text succeeded (exit 0, no hint)', async () => {
    const dir = cli.tempDir();
    const config = writeFixtureConfig(dir, [{ id: 'fx' }]);
    const text = "ERROR: unknown tool 'fx.other'";
    const r = await cli.runCli(['call', config, 'fx.echo', JSON.stringify({ text }), '--trust-all']);
    expect(r).toMatchObject({ code: 0, stdout: `${text}\n`, stderr: '' });
  });

  it('honours --timeout', async () => {
    const dir = cli.tempDir();
    const config = writeFixtureConfig(dir, [{ id: 'fx' }]);
    const r = await cli.runCli(['call', config, 'fx.hang', '--timeout', '2s', '--trust-all']);
    expect(r.code).toBe(1);
    // The config's call timeout is 5 s: the message names the one given on the command line, whole, though the
    // server's start took part of it.
    expect(r.stdout).toBe("ERROR: tool 'fx.hang' timed out after 2000 ms\n");
  });

  it('--timeout is one deadline for the whole command: a server that never answers initialize ends it in time', async () => {
    const dir = cli.tempDir();
    // A startup budget no test lives to see: only the deadline can end the command, and its message names it.
    const config = writeFixtureConfig(dir, [
      { id: 'fx', flags: ['--hang-initialize'], timeouts: '{ startup: 10m, call: 5s, shutdown: 1s }' },
    ]);
    const r = await cli.runCli(['call', config, 'fx.echo', '--timeout', '1s', '--trust-all']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^ERROR: server 'fx' did not become ready within 1000 ms\n$/);
    expect(await allGone(fixturePids(dir))).toBe(true);
  });

  it('without --timeout, the startup budget and the restart limit end a server that never becomes ready', async () => {
    const dir = cli.tempDir();
    const path = writeFixtureConfig(dir, [
      { id: 'fx', flags: ['--hang-initialize'], timeouts: '{ startup: 300ms, call: 60s, shutdown: 1s }' },
    ]);
    // Each attempt outlasts the window: only the count of failed starts in a row can end this.
    const yaml = readFileSync(path, 'utf8').replace(
      'restart: { policy: on-failure,',
      'restart: { limit: { maxRestarts: 2, window: 100ms }, policy: on-failure,',
    );
    writeFileSync(path, yaml);
    const r = await cli.runCli(['call', path, 'fx.echo', '--trust-all']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("ERROR: server 'fx' is failed: did not become ready in 3 starts in a row\n");
    expect(await allGone(fixturePids(dir))).toBe(true);
  });

  it('starts only the server that owns the tool', async () => {
    const dir = cli.tempDir();
    const config = writeFixtureConfig(dir, [{ id: 'fx' }, { id: 'other' }, { id: 'fx_more' }]);
    const r = await cli.runCli(['call', config, 'fx_more.echo', '{"text":"mine"}', '--trust-all']);
    expect(r).toMatchObject({ code: 0, stdout: 'mine\n' });
    // The command has exited: a server it did not start by now it never will.
    expect(existsSync(join(dir, 'fx_more.pid.json'))).toBe(true);
    expect(existsSync(join(dir, 'fx.pid.json'))).toBe(false);
    expect(existsSync(join(dir, 'other.pid.json'))).toBe(false);
    expect(await allGone(fixturePids(dir))).toBe(true);
  });

  it('a name no server can own is an error at once, with nothing started', async () => {
    const dir = cli.tempDir();
    const config = writeFixtureConfig(dir, [{ id: 'fx' }, { id: 'other' }]);
    const r = await cli.runCli(['call', config, 'nobody.echo', '--trust-all']);
    expect(r).toMatchObject({
      code: 1,
      stdout: "ERROR: unknown tool 'nobody.echo': no server owns it\n",
      stderr: 'a tool is named <server>.<tool>; servers: fx, other\n',
    });
    expect(fixturePids(dir)).toEqual([]);
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
    // Every run has exited, and a run reaps what it started: no server of it can write its pid file from now on.
    expect(existsSync(join(dir, 'fx.pid.json'))).toBe(false);
  });

  it('rejects a --trust id the config does not have (exit 2)', async () => {
    const dir = cli.tempDir();
    const config = writeFixtureConfig(dir, [{ id: 'fx' }]);
    const r = await cli.runCli(['call', config, 'fx.echo', '--trust', 'fz']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("mcp-supervisor: --trust names unknown server 'fz' (servers: fx)\n");
  });
});
