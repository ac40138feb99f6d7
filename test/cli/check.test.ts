import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cliProcesses, ensureBuilt, ROOT } from './helpers.js';

/** Pids of the live processes whose command line mentions `text`. */
function processesNaming(text: string): number[] {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        return readFileSync(`/proc/${d}/cmdline`, 'utf8').includes(text);
      } catch {
        return false;
      }
    })
    .map(Number);
}

const cli = cliProcesses();
beforeAll(ensureBuilt, 120_000);
afterEach(cli.reap);

describe('mcp-supervisor check', () => {
  it('summarizes a good config (command, restart policy, strategy) and spawns nothing', async () => {
    const dir = cli.tempDir();
    const marker = join(dir, 'spawned');
    const path = join(dir, 'fleet.yaml');
    writeFileSync(
      path,
      [
        'supervisor: { strategy: rest_for_one }',
        'servers:',
        '  marker:',
        `    command: ${JSON.stringify(process.execPath)}`,
        `    args: ["-e", ${JSON.stringify(`require('fs').writeFileSync(${JSON.stringify(marker)}, 'x')`)}]`,
        '    restart: { policy: always, backoff: { initial: 250ms, multiplier: 3, max: 9s }, limit: { maxRestarts: 4, window: 30s } }',
        '  off:',
        '    command: srv',
        '    disabled: true',
        '    restart: never',
        '',
      ].join('\n'),
    );
    const r = await cli.runCli(['check', path]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(
      `${path}: ok, 2 server(s), strategy rest_for_one, separator ".", limit 20 restarts in 1m00s`,
    );
    expect(lines[1]).toMatch(/^ {2}marker {2}\S*node -e /);
    expect(lines[2]).toContain('restart always, backoff 250ms x3 up to 9s, limit 4 in 30s');
    expect(lines[3]).toBe('  off     srv  (disabled)');
    expect(lines[4]).toContain('restart never');
    // The command would have written the marker had anything been spawned. `check` has exited; a server it
    // started would carry the marker's path on its command line until it has written it and ended.
    const end = Date.now() + 5000;
    while (processesNaming(marker).length > 0 && Date.now() < end)
      await new Promise((r) => setTimeout(r, 10));
    expect(processesNaming(marker)).toEqual([]);
    expect(existsSync(marker)).toBe(false);
  });

  it('accepts the demo config', async () => {
    const r = await cli.runCli(['check', 'examples/demo.yaml']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^examples\/demo\.yaml: ok, 3 server\(s\)/);
    for (const id of ['notes', 'flaky', 'slow'])
      expect(r.stdout).toMatch(new RegExp(`^ {2}${id} +node ${id}\\.mjs`, 'm'));
  });

  it('says what each server would be contained by: the strongest here, or the one the config forces', async () => {
    const auto = await cli.runCli(['check', 'examples/demo.yaml']);
    expect(auto.stdout.match(/; contained by (cgroup|pidns|pgroup)$/gm)).toHaveLength(3);
    const dir = cli.tempDir();
    const path = join(dir, 'fleet.yaml');
    writeFileSync(
      path,
      [
        'supervisor: { containment: pgroup }',
        'servers:',
        `  a: { command: ${JSON.stringify(process.execPath)} }`,
        '',
      ].join('\n'),
    );
    const forced = await cli.runCli(['check', path]);
    expect(forced.code).toBe(0);
    expect(forced.stdout).toMatch(/; contained by pgroup$/m);
  });

  it('prints every located problem of a bad config, one per line, and exits 1', async () => {
    const dir = cli.tempDir();
    const path = join(dir, 'bad.yaml');
    writeFileSync(
      path,
      [
        'supervisor:',
        '  strategy: one_for_some',
        'servers:',
        '  Bad_Id:',
        '    command: node',
        '  ok:',
        '    args: [x]',
        '',
      ].join('\n'),
    );
    const r = await cli.runCli(['check', path]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      [
        `${path}:2:3 supervisor.strategy: expected one of: one_for_one, one_for_all, rest_for_one`,
        `${path}:4:3 servers.Bad_Id: invalid server id "Bad_Id": expected [a-z][a-z0-9_-]* (lower-case letters, digits, _ and -, starting with a letter)`,
        `${path}:6:3 servers.ok.command: missing (required): a command to run, a container, or a url`,
        '',
      ].join('\n'),
    );
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('refuses a duration without a unit at its line, saying which unit to add', async () => {
    const dir = cli.tempDir();
    const path = join(dir, 'units.yaml');
    writeFileSync(path, 'servers:\n  a:\n    command: srv\n    timeouts: { startup: 10, call: 5s }\n');
    const r = await cli.runCli(['check', path]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `${path}:4:17 servers.a.timeouts.startup: duration 10 has no unit: add one, e.g. 10s or 10ms\n`,
    );
  });

  it('reports a list or map used as a key at its line, with no warning from the YAML parser', async () => {
    const dir = cli.tempDir();
    const path = join(dir, 'keys.yaml');
    writeFileSync(path, 'servers:\n  ok: { command: srv }\n  ? [a, b]\n  : { command: x }\n');
    const r = await cli.runCli(['check', path]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`${path}:3:5 servers: a key must be a plain value, not a list or map\n`);
  });

  it('rejects an unknown tag rather than reading the plain string after it', async () => {
    const dir = cli.tempDir();
    const path = join(dir, 'tag.yaml');
    writeFileSync(path, 'servers:\n  a:\n    command: !env SERVER_BIN\n');
    const r = await cli.runCli(['check', path]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `${path}:3:14: Unresolved tag: !env (only the standard YAML tags are understood; write the value without it)\n`,
    );
  });

  it('names a missing file in one line with exit 2', async () => {
    const r = await cli.runCli(['check', join(ROOT, 'no-such-dir', 'fleet.yaml')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^mcp-supervisor: cannot read config '.*no-such-dir\/fleet\.yaml': no such file\n$/,
    );
  });
});
