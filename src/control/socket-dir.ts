import { randomBytes } from 'node:crypto';
import { readdirSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';

/** Control sockets are `ctl-<pid>-<tag>.sock`: one per supervisor instance, so instances share a directory. */
const SOCKET_FILE = /^ctl-(\d+)-[0-9a-f]+\.sock$/;

/** The longest path a Unix socket may have on Linux (sun_path is 108 bytes with its terminator). */
export const MAX_SOCKET_PATH = 107;

/** A fresh socket path in `dir` for this process. */
export function newSocketPath(dir: string): string {
  return join(dir, `ctl-${process.pid}-${randomBytes(4).toString('hex')}.sock`);
}

/** Every control socket file in `dir`, live or not (an unreadable or missing directory has none). */
export function socketFiles(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((f) => SOCKET_FILE.test(f))
      .sort()
      .map((f) => join(dir, f));
  } catch {
    return [];
  }
}

/** Whether something accepts connections on `path` (bounded: a wedged listener counts as live). */
export function listening(path: string, ms = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(path);
    const done = (live: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(live);
    };
    const timer = setTimeout(() => done(true), ms);
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/**
 * Removes the sockets of `dir` nobody listens on whose process is gone (a host killed before it could remove
 * its own). A socket of a live process is left alone even when refused: it may be between bind and listen.
 */
export async function removeStaleSockets(dir: string): Promise<string[]> {
  const removed: string[] = [];
  for (const path of socketFiles(dir)) {
    const pid = Number(SOCKET_FILE.exec(path.slice(path.lastIndexOf('/') + 1))?.[1]);
    if (pidAlive(pid) || (await listening(path))) continue;
    try {
      rmSync(path, { force: true });
      removed.push(path);
    } catch {
      // Not ours to remove (another user's file in a shared directory): clients skip it, as nobody answers.
    }
  }
  return removed;
}

function pidAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
