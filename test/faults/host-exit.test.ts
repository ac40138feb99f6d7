import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { alive, tempDir } from '../supervisor/helpers.js';

const HOST = fileURLToPath(new URL('./stop-host.ts', import.meta.url));
const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

/** Runs the host to its end (at most 20 s); returns its exit code, its stdout, and the fixture's pid file. */
async function runHost() {
  const t = tempDir();
  const pidFile = join(t.dir, 'pids.json');
  const host = spawn(process.execPath, ['--import', 'tsx', HOST, pidFile], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  host.stdout.on('data', (d: Buffer) => {
    out += d.toString();
  });
  host.stderr.resume();
  cleanups.push(() => {
    if (host.exitCode === null) host.kill('SIGKILL');
    // The fixture's group is ours to end: whatever the host left of it must not outlive the test.
    try {
      const { pid } = JSON.parse(readFileSync(pidFile, 'utf8')) as { pid: number };
      process.kill(-pid, 'SIGKILL');
    } catch {
      // no pid file, or the group is already gone
    }
    t.cleanup();
  });
  const code = await new Promise<number | null>((resolve) => {
    const timer = setTimeout(() => resolve(-1), 20_000);
    host.once('exit', (c) => {
      clearTimeout(timer);
      resolve(c);
    });
  });
  const pids = JSON.parse(readFileSync(pidFile, 'utf8')) as { pid: number; grandchild: number };
  return { code, out, pids };
}

describe('a host that ends right after await stop()', () => {
  // A host with nothing else on its loop (a CLI, a script) must see stop() resolve: the waits of a stop someone
  // awaits keep the loop alive, so the SIGTERM-proof grandchild gets its SIGKILL and the host exits 0.
  it('sees stop() resolve, exits 0, and leaves no grandchild', async () => {
    const { code, out, pids } = await runHost();
    expect({ code, stopped: out.includes('stopped'), grandchildAlive: alive(pids.grandchild) }).toEqual({
      code: 0,
      stopped: true,
      grandchildAlive: false,
    });
  }, 30_000);
});
