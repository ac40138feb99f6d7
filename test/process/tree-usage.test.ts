import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { treeUsage } from '../../src/process/tree-usage.js';

const FIXTURE = new URL('../fixtures/mcp-server.mjs', import.meta.url).pathname;
const groups: number[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const pgid of groups.splice(0)) {
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function pidFile(path: string): Promise<{ pid: number; grandchild: number | null }> {
  const end = Date.now() + 5000;
  for (;;) {
    try {
      return JSON.parse(readFileSync(path, 'utf8'));
    } catch {
      if (Date.now() > end) throw new Error(`${path} never appeared`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}

describe('treeUsage', () => {
  it("sums a process group's members from /proc: the leader and what it started", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-sup-usage-'));
    dirs.push(dir);
    const file = join(dir, 'pid.json');
    const child = spawn(process.execPath, [FIXTURE, '--grandchild', `--pid-file=${file}`], {
      detached: true,
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    groups.push(child.pid!);
    const { pid, grandchild } = await pidFile(file);
    expect(grandchild).not.toBeNull();
    const usage = treeUsage(pid)!;
    expect(usage).toMatchObject({ processes: 2, from: 'pgroup' });
    // Two live Node processes: each holds well over a MiB resident.
    expect(usage.rssBytes).toBeGreaterThan(2 * 1024 * 1024);
    expect(usage.cpuMs).toBeGreaterThan(0);
    process.kill(-pid, 'SIGKILL');
    await new Promise((r) => child.once('exit', r));
    const end = Date.now() + 3000;
    while (treeUsage(pid) !== undefined && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
    expect(treeUsage(pid)).toBeUndefined();
  });
});
