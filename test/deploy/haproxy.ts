import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { join } from 'node:path';
import { describe } from 'vitest';
import { ROOT } from '../cli/helpers.js';

/** The HAProxy binary, or why there is none. */
function haproxyBinary(): { path?: string; why?: string } {
  try {
    const path = execFileSync('sh', ['-c', 'command -v haproxy'], { encoding: 'utf8' }).trim();
    return path ? { path } : { why: 'haproxy is not installed (apt-get install haproxy)' };
  } catch {
    return { why: 'haproxy is not installed (apt-get install haproxy)' };
  }
}

/**
 * `describe` that runs only where HAProxy is installed: skipped with the reason printed locally, a failure under
 * CI, which must never pass without running it.
 */
export function describeHaproxy(name: string, body: (binary: string) => void): void {
  const found = haproxyBinary();
  if (found.path) {
    describe(name, () => body(found.path as string));
    return;
  }
  if (process.env.CI === 'true') throw new Error(`the load balancer tests cannot run under CI: ${found.why}`);
  console.warn(`load balancer tests skipped: ${found.why}`);
  describe.skip(name, () => {});
}

/** The HAProxy config docs/scale-out.md shows, as written there: the test runs what users are told to run. */
export function documentedConfig(): string {
  const doc = readFileSync(join(ROOT, 'docs', 'scale-out.md'), 'utf8');
  const block = /```haproxy\n([\s\S]*?)```/.exec(doc)?.[1];
  if (!block) throw new Error('docs/scale-out.md has no haproxy block');
  return block;
}

/** A port free on loopback now (bound and let go: the test binds it a moment later). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface Haproxy {
  child: ChildProcess;
  /** Each server's status in the backend (`UP`, `DOWN`, `UP 1/2`, …), by name, as the stats socket tells. */
  states(): Promise<Record<string, string>>;
  /** Ends it (SIGTERM, then SIGKILL) and waits for its exit. Idempotent. */
  stop(): Promise<void>;
}

/** Starts HAProxy in the foreground on the documented config, the addresses in its environment. */
export async function startHaproxy(
  binary: string,
  dir: string,
  env: Record<string, string>,
): Promise<Haproxy> {
  const file = join(dir, 'haproxy.cfg');
  writeFileSync(file, documentedConfig());
  const stats = join(dir, 'haproxy.sock');
  const child = spawn(binary, ['-db', '-f', file], {
    env: { ...process.env, ...env, MCP_LB_STATS: stats },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let said = '';
  child.stdout?.on('data', (c: Buffer) => {
    said += c.toString();
  });
  child.stderr?.on('data', (c: Buffer) => {
    said += c.toString();
  });
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const ask = (command: string) =>
    new Promise<string>((resolve, reject) => {
      let out = '';
      const socket = createConnection(stats, () => socket.end(`${command}\n`));
      socket.setTimeout(2000, () => socket.destroy(new Error('the stats socket did not answer')));
      socket.on('data', (c: Buffer) => {
        out += c.toString();
      });
      socket.on('error', reject);
      socket.on('close', () => resolve(out));
    });
  const states = async () => {
    const [head, ...rows] = (await ask('show stat')).trim().split('\n');
    const columns = (head ?? '').replace(/^# /, '').split(',');
    const [px, sv, status] = ['pxname', 'svname', 'status'].map((c) => columns.indexOf(c));
    const out: Record<string, string> = {};
    for (const row of rows) {
      const cells = row.split(',');
      if (cells[px as number] === 'replicas' && !['BACKEND', 'FRONTEND'].includes(cells[sv as number] ?? ''))
        out[cells[sv as number] as string] = cells[status as number] ?? '';
    }
    return out;
  };
  // Up once its stats socket answers; an exit before that is a config it refused, told whole.
  const end = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`haproxy exited ${child.exitCode}:\n${said}`);
    const ok = await states().then(
      () => true,
      () => false,
    );
    if (ok) break;
    if (Date.now() > end) {
      child.kill('SIGKILL');
      throw new Error(`haproxy did not come up within 10 s:\n${said}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const late = setTimeout(() => child.kill('SIGKILL'), 3000);
      await exited;
      clearTimeout(late);
    })();
    return stopping;
  };
  return { child, states, stop };
}
