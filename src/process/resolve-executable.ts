import { createHash } from 'node:crypto';
import { constants, createReadStream } from 'node:fs';
import { access, realpath, stat } from 'node:fs/promises';
import { delimiter, isAbsolute, join, resolve } from 'node:path';

/**
 * Finds the file a spawn of `command` would run, the way execvp (and libuv) do: a command holding a `/` is a
 * path, taken relative to `cwd`; any other is looked up in each `PATH` entry in order (an empty entry means the
 * working directory) and the first executable regular file wins. Symlinks are followed to the real file.
 * Returns null when nothing would run.
 */
export async function resolveExecutable(
  command: string,
  cwd: string,
  pathEnv: string,
): Promise<string | null> {
  if (command === '') return null;
  if (command.includes('/')) return realFile(resolve(cwd, command), false);
  for (const file of executableCandidates(command, cwd, pathEnv)) {
    const found = await realFile(file, true);
    if (found !== null) return found;
  }
  return null;
}

/** The files execvp would try for `command`, in order: the path itself when it holds a `/`, else each PATH entry's. */
export function executableCandidates(command: string, cwd: string, pathEnv: string): string[] {
  if (command === '') return [];
  if (command.includes('/')) return [resolve(cwd, command)];
  return pathEnv.split(delimiter).map((dir) => {
    const base = dir === '' ? cwd : isAbsolute(dir) ? dir : resolve(cwd, dir);
    return join(base, command);
  });
}

/** The real path of `file` when it is a regular file (and executable, if asked); else null. */
async function realFile(file: string, mustExecute: boolean): Promise<string | null> {
  try {
    const info = await stat(file);
    if (!info.isFile()) return null;
    if (mustExecute) await access(file, constants.X_OK);
    return await realpath(file);
  } catch {
    return null;
  }
}

/** The real path and size of `file` when it names an existing regular file (symlinks followed); else null. */
export async function regularFile(file: string): Promise<{ path: string; size: number } | null> {
  try {
    const info = await stat(file);
    if (!info.isFile()) return null;
    return { path: await realpath(file), size: info.size };
  } catch {
    return null;
  }
}

const memo = new Map<string, { key: string; sha256: Promise<string | null> }>();

/**
 * sha256 (hex) of a file's bytes, streamed so a large binary is never held whole; null if it cannot be read.
 * Hashing a 100 MB interpreter on every restart would cost most of a second, so a digest is reused while the
 * file's identity and change time are the same: `ctime` moves on every write and cannot be set back by a user.
 * A digest under way is shared too: a fleet of one binary starting at once reads it once, not once per server.
 */
export async function sha256File(file: string): Promise<string | null> {
  let key: string;
  try {
    const info = await stat(file, { bigint: true });
    key = `${info.dev}:${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`;
  } catch {
    return null;
  }
  const known = memo.get(file);
  if (known?.key === key) return known.sha256;
  const sha256 = digest(file);
  memo.set(file, { key, sha256 });
  const out = await sha256;
  // An unreadable file is asked again next time, not remembered as unreadable.
  if (out === null && memo.get(file)?.sha256 === sha256) memo.delete(file);
  return out;
}

async function digest(file: string): Promise<string | null> {
  const hash = createHash('sha256');
  try {
    for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  } catch {
    return null;
  }
  return hash.digest('hex');
}
