import { spawn } from 'node:child_process';
import { existsSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cliProcesses, ensureBuilt, ROOT } from './helpers.js';

const cli = cliProcesses();
beforeAll(ensureBuilt, 120_000);
afterEach(cli.reap);

describe('npm start', () => {
  it('keeps the demo’s approvals and state under .demo/ beside it, never in the user’s own store', async () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      scripts: { start: string };
    };
    const start = pkg.scripts.start;
    // The script as npm runs it after its build, from a directory laid out as the project is.
    expect(start).toMatch(/^node dist\/cli\/main\.js run examples\/demo\.yaml /);
    const dir = cli.tempDir();
    for (const part of ['dist', 'examples']) symlinkSync(join(ROOT, part), join(dir, part));
    const home = cli.tempDir();
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, NO_COLOR: '1' };
    for (const key of ['XDG_CONFIG_HOME', 'XDG_STATE_HOME', 'MCP_SUPERVISOR_TRUST_STORE']) delete env[key];
    const child = spawn('sh', ['-c', `exec ${start}`], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    if (child.pid) cli.trackPid(child.pid);
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    const end = Date.now() + 20_000;
    while (!/event=log msg=started/.test(stderr)) {
      if (Date.now() > end || child.exitCode !== null) throw new Error(`the demo did not start:\n${stderr}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    child.kill('SIGINT');
    expect(await exited, stderr).toBe(0);
    const store = JSON.parse(readFileSync(join(dir, '.demo', 'trust.json'), 'utf8')) as {
      servers: Record<string, { id: string }>;
    };
    expect(
      Object.values(store.servers)
        .map((r) => r.id)
        .sort(),
    ).toEqual(['flaky', 'notes', 'slow']);
    expect(existsSync(join(home, '.config', 'mcp-supervisor'))).toBe(false);
    expect(existsSync(join(home, '.local', 'state', 'mcp-supervisor'))).toBe(false);
  }, 40_000);
});
