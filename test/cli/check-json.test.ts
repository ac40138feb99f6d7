import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { connect, createServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cliProcesses, ensureBuilt } from './helpers.js';

const cli = cliProcesses();
beforeAll(ensureBuilt, 120_000);
afterEach(cli.reap);

describe('mcp-supervisor check --json', () => {
  it('gives every problem as data with its code: duplicate key, launch, cwd, manifest, url', async () => {
    const dir = cli.tempDir();
    // The spawn's look-up: a directory named like the command is passed over, a file without x bits is EACCES.
    const [dirs, plain] = [join(dir, 'a'), join(dir, 'b')];
    mkdirSync(join(dirs, 'srv'), { recursive: true });
    mkdirSync(plain);
    writeFileSync(join(plain, 'srv'), '#!/bin/sh\n');
    chmodSync(join(plain, 'srv'), 0o644);
    const manifest = join(dir, 'bad.manifest.yaml');
    writeFileSync(manifest, 'provides:\n  mcp_tools: [Bad-Name]\n');
    const path = join(dir, 'fleet.yaml');
    writeFileSync(
      path,
      [
        'servers:',
        '  dup:',
        `    command: ${JSON.stringify(process.execPath)}`,
        '  dup:',
        '    command: srv',
        `    env: { PATH: "${dirs}:${plain}" }`,
        '  nocwd:',
        `    command: ${JSON.stringify(process.execPath)}`,
        '    cwd: ./missing',
        '  plug:',
        `    command: ${JSON.stringify(process.execPath)}`,
        '    manifest: bad.manifest.yaml',
        '  web:',
        '    url: ftp://mcp.example.com/mcp',
        '',
      ].join('\n'),
    );
    const r = await cli.runCli(['check', '--json', path]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(1);
    const data = JSON.parse(r.stdout) as { ok: boolean; problems: Record<string, unknown>[] };
    expect(data.ok).toBe(false);
    expect(
      data.problems.map(({ source, line, col, path, code }) => ({ source, line, col, path, code })),
    ).toEqual([
      { source: path, line: 4, col: 3, path: '', code: 'DUPLICATE_KEY' },
      { source: path, line: 5, col: 5, path: 'servers.dup.command', code: 'EACCES' },
      { source: path, line: 9, col: 5, path: 'servers.nocwd.cwd', code: 'CWD_MISSING' },
      { source: path, line: 14, col: 5, path: 'servers.web.url', code: 'INVALID' },
      { source: manifest, line: 2, col: 15, path: 'provides.mcp_tools[0]', code: 'MANIFEST_INVALID' },
    ]);
    expect(data.problems[1]!['message']).toBe(
      `command "srv" found at ${join(plain, 'srv')} but it is not executable (EACCES)`,
    );
  });

  it('says ok with the servers, and never connects to a url server', async () => {
    const accepted: Socket[] = [];
    const listener = createServer((s) => accepted.push(s));
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    try {
      const port = (listener.address() as { port: number }).port;
      const dir = cli.tempDir();
      const path = join(dir, 'fleet.yaml');
      writeFileSync(
        path,
        [
          'servers:',
          `  web: { url: "http://127.0.0.1:${port}/mcp" }`,
          `  local: { command: ${JSON.stringify(process.execPath)} }`,
          '',
        ].join('\n'),
      );
      const r = await cli.runCli(['check', '--json', path]);
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({
        ok: true,
        source: path,
        problems: [],
        servers: [
          { id: 'web', disabled: false, remote: true },
          { id: 'local', disabled: false, remote: false },
        ],
      });
      // Connections are accepted in the order they arrive: if ours is the first, check made none.
      const probe = connect(port, '127.0.0.1');
      await new Promise<void>((resolve) => probe.on('connect', resolve));
      const end = Date.now() + 5000;
      while (accepted.length === 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
      expect(accepted.map((s) => s.remotePort)).toEqual([probe.localPort]);
      probe.destroy();
    } finally {
      for (const s of accepted) s.destroy();
      await new Promise((resolve) => listener.close(resolve));
    }
  });
});
