import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cliProcesses, ensureBuilt } from './helpers.js';

const cli = cliProcesses();
beforeAll(ensureBuilt, 120_000);
afterEach(cli.reap);

describe('mcp-supervisor check: what a launch would meet on this machine', () => {
  it('locates a command not found on the child PATH, naming the directories searched', async () => {
    const dir = cli.tempDir();
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    const path = join(dir, 'fleet.yaml');
    writeFileSync(
      path,
      [
        'servers:',
        '  gone:',
        '    command: no-such-server-xyz',
        `    env: { PATH: ${JSON.stringify(bin)} }`,
        '  here:',
        `    command: ${JSON.stringify(process.execPath)}`,
        '',
      ].join('\n'),
    );
    const r = await cli.runCli(['check', path]);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `${path}:3:5 servers.gone.command: command "no-such-server-xyz" not found on PATH (searched: ${bin})\n`,
    );
    expect(r.code).toBe(1);
  });

  it('locates a cwd that does not exist, a file given as cwd, and a script that is not executable', async () => {
    const dir = cli.tempDir();
    const file = join(dir, 'plain.txt');
    writeFileSync(file, 'x');
    const script = join(dir, 'srv.sh');
    writeFileSync(script, '#!/bin/sh\n');
    chmodSync(script, 0o644);
    const path = join(dir, 'fleet.yaml');
    writeFileSync(
      path,
      [
        'servers:',
        '  a:',
        `    command: ${JSON.stringify(process.execPath)}`,
        '    cwd: ./missing',
        '  b:',
        `    command: ${JSON.stringify(process.execPath)}`,
        '    cwd: plain.txt',
        '  c:',
        '    command: ./srv.sh',
        '',
      ].join('\n'),
    );
    const r = await cli.runCli(['check', path]);
    expect(r.stderr.split('\n')).toEqual([
      `${path}:4:5 servers.a.cwd: cwd ${join(dir, 'missing')} cannot be used: it does not exist`,
      `${path}:7:5 servers.b.cwd: cwd ${file} cannot be used: not a directory`,
      `${path}:9:5 servers.c.command: command "./srv.sh" found at ${script} but it is not executable (EACCES)`,
      '',
    ]);
    expect(r.code).toBe(1);
  });

  it("reports the valid servers' launch problems with the file's other problems and an unreadable manifest", async () => {
    const dir = cli.tempDir();
    mkdirSync(join(dir, 'plugin'));
    const path = join(dir, 'fleet.yaml');
    writeFileSync(
      path,
      [
        'servers:',
        '  a:',
        `    command: ${JSON.stringify(process.execPath)}`,
        '    restart: { policy: sometimes }',
        '  b:',
        '    command: no-such-server-xyz',
        `    env: { PATH: ${JSON.stringify(dir)} }`,
        '  c:',
        `    command: ${JSON.stringify(process.execPath)}`,
        '    manifest: ./plugin',
        '  d:',
        '    url: mcp.example.com/mcp',
        '',
      ].join('\n'),
    );
    const r = await cli.runCli(['check', path]);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines.map((l) => l.slice(0, l.indexOf(': ')))).toEqual([
      `${path}:4:16 servers.a.restart.policy`,
      `${path}:6:5 servers.b.command`,
      `${path}:10:5 servers.c.manifest`,
      `${path}:12:5 servers.d.url`,
    ]);
    expect(lines[1]).toContain(`command "no-such-server-xyz" not found on PATH (searched: ${dir})`);
    expect(lines[2]).toContain(`cannot read manifest ${join(dir, 'plugin')}: EISDIR`);
    expect(lines[3]).toContain('expected an http:// or https:// URL');
    expect(r.code).toBe(1);
  });

  it('locates a script argument that names no file under the cwd (code SCRIPT_MISSING), and passes one that does', async () => {
    const dir = cli.tempDir();
    mkdirSync(join(dir, 'srv'));
    writeFileSync(join(dir, 'srv', 'here.js'), '');
    const path = join(dir, 'fleet.yaml');
    const node = JSON.stringify(process.execPath);
    writeFileSync(
      path,
      [
        'servers:',
        '  gone:',
        `    command: ${node}`,
        '    args: [--enable-source-maps, missing.js]',
        '  here:',
        `    command: ${node}`,
        '    args: [here.js]',
        '    cwd: srv',
        '',
      ].join('\n'),
    );
    const r = await cli.runCli(['check', path]);
    expect(r.stderr).toBe(
      `${path}:4:34 servers.gone.args[1]: script "missing.js" not found: ${join(dir, 'missing.js')} does not exist\n`,
    );
    expect(r.code).toBe(1);
    const json = await cli.runCli(['check', path, '--json']);
    expect(JSON.parse(json.stdout).problems).toMatchObject([{ code: 'SCRIPT_MISSING', line: 4, col: 34 }]);
  });

  it('leaves a disabled server alone, as run does until it is started', async () => {
    const dir = cli.tempDir();
    const path = join(dir, 'fleet.yaml');
    writeFileSync(path, 'servers:\n  off:\n    command: no-such-server-xyz\n    disabled: true\n');
    const r = await cli.runCli(['check', path]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });

  it('reports a NUL byte in args as a located problem, not a crash', async () => {
    const dir = cli.tempDir();
    const path = join(dir, 'fleet.json');
    writeFileSync(
      path,
      JSON.stringify({ mcpServers: { a: { command: process.execPath, args: ['x\u0000y'] } } }),
    );
    const r = await cli.runCli(['check', path]);
    expect(r.stderr).toMatch(
      new RegExp(
        `^${path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:1:\\d+ mcpServers\\.a\\.args\\[0\\]: contains a NUL byte \\(\\\\0\\)`,
      ),
    );
    expect(r.stderr).not.toMatch(/ERR_INVALID_ARG_VALUE|\n\s+at /);
    expect(r.code).toBe(1);
  });
});
