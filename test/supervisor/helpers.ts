import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildChildEnv } from '../../src/process/child-env.js';
import { liveGroups, procStat, reapAll } from '../../src/process/ledger.js';
import { McpConnection } from '../../src/protocol/connection.js';
import type { ConnectionEvent, ConnectionOptions } from '../../src/protocol/connection-types.js';

/** The fixture MCP server's path. */
export const FIXTURE = fileURLToPath(new URL('../fixtures/mcp-server.mjs', import.meta.url));

/** True while a process with this pid exists and is not a zombie waiting to be reaped. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  const stat = procStat(pid);
  return stat === undefined ? existsSync(`/proc/${pid}`) : stat.state !== 'Z' && stat.state !== 'X';
}

/** Polls until the pid is gone or `ms` passed; returns whether it is gone. */
export async function gone(pid: number, ms = 3000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (!alive(pid)) return true;
    await new Promise((r) => setTimeout(r, 10));
  }
  return !alive(pid);
}

/** A temp dir that `cleanup()` removes. */
export function tempDir(): { dir: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-sup-test-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Every JSON line the fixture logged with `--log`. */
export function readLog(path: string): Array<Record<string, unknown>> {
  try {
    return readFileSync(path, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  } catch {
    return [];
  }
}

/** Opens connections to the fixture and reaps them all in `reap()` (call it from afterEach). */
export function fixtureConnections() {
  const opened: McpConnection[] = [];
  const events: ConnectionEvent[] = [];
  const open = (args: string[] = [], over: Partial<ConnectionOptions> = {}) => {
    const conn = new McpConnection({
      serverId: 'fixture',
      command: process.execPath,
      args: [FIXTURE, ...args],
      cwd: process.cwd(),
      env: buildChildEnv(process.env, [], {}),
      startupMs: 5000,
      shutdownMs: 500,
      stdinGraceMs: 200,
      onEvent: (e) => events.push(e),
      ...over,
    });
    opened.push(conn);
    return conn;
  };
  const reap = async () => {
    await Promise.all(opened.splice(0).map((c) => c.close('stopped', { immediate: true })));
    for (const g of liveGroups()) if (g.serverId === 'fixture') reapAll();
  };
  return { open, reap, events };
}

/** The first line a child prints on stdout (a host process telling what it started), or an error if it ends first. */
export async function firstLine(child: ChildProcess): Promise<string> {
  let buf = '';
  for await (const chunk of child.stdout!) {
    buf += String(chunk);
    const nl = buf.indexOf('\n');
    if (nl >= 0) return buf.slice(0, nl);
  }
  throw new Error('the child ended before printing a line');
}
