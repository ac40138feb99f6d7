import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, rm, rmdir, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { TrustStoreError } from './trust-error.js';

export interface FileLockOptions {
  /** Give up after this long while a live process holds the lock (default 10 s). */
  timeoutMs?: number;
  /** First wait between two tries; doubles up to 100 ms (default 5 ms). */
  retryMs?: number;
}

/**
 * Runs `op` while holding `<path>.lock`, so that processes sharing one store apply their read-change-write one
 * at a time. The lock is a directory holding one file named `<pid>.<nonce>` after its holder. It appears whole,
 * by renaming a private directory into place (a rename succeeds only while no holder is there), and a lock left
 * by a process that died is taken over by unlinking its holder's file: that name is unique, so of several
 * processes that find the same dead holder only one unlinks it, and none can remove a lock taken since. A lock
 * file of the earlier format is taken over by unlinking that file, which never removes a directory: of several
 * processes that judged it dead at once, only one removes it, and none removes the lock one of them took since.
 * Anything else the file system refuses is an `io_error`, never taken for a free lock. One held by a live
 * process longer than the timeout is a `locked` error naming the holder, never a hang.
 */
export async function withFileLock<T>(
  path: string,
  op: () => Promise<T>,
  opts: FileLockOptions = {},
): Promise<T> {
  const lock = `${path}.lock`;
  const timeoutMs = opts.timeoutMs ?? 10_000;
  let wait = opts.retryMs ?? 5;
  const end = Date.now() + timeoutMs;
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const entry = `${process.pid}.${randomBytes(8).toString('hex')}`;
  for (;;) {
    if (await tryAcquire(lock, entry)) break;
    const holder = await holderOf(lock);
    if (holder.kind === 'dead') await removeDead(lock, holder);
    if (Date.now() >= end) {
      const who = holder.kind === 'live' ? (holder.pid ?? '(unknown)') : '(none found)';
      throw new TrustStoreError(
        'locked',
        path,
        `trust store ${path} is locked by process ${who} (${lock}); remove the lock if that process is gone`,
      );
    }
    // A lock just freed or taken over is tried again at once; a live holder is waited for.
    if (holder.kind === 'live') {
      await new Promise((r) => setTimeout(r, wait));
      wait = Math.min(wait * 2, 100);
    } else {
      await new Promise((r) => setImmediate(r));
    }
  }
  try {
    return await op();
  } finally {
    await unlink(join(lock, entry)).catch(() => {});
    // Fails when another process already renamed its lock in over the emptied one: that lock is theirs.
    await rmdir(lock).catch(() => {});
  }
}

async function tryAcquire(lock: string, entry: string): Promise<boolean> {
  const tmp = join(dirname(lock), `.${basename(lock)}.${entry}.tmp`);
  try {
    await mkdir(tmp, { mode: 0o700 });
    await (await open(join(tmp, entry), 'wx', 0o600)).close();
  } catch (err) {
    await rm(tmp, { recursive: true, force: true });
    throw new TrustStoreError('io_error', lock, `cannot create lock ${lock}: ${(err as Error).message}`);
  }
  try {
    await rename(tmp, lock);
    return true;
  } catch (err) {
    await rm(tmp, { recursive: true, force: true });
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOTEMPTY' || code === 'EEXIST' || code === 'ENOTDIR' || code === 'EISDIR') return false;
    throw new TrustStoreError('io_error', lock, `cannot create lock ${lock}: ${(err as Error).message}`);
  }
}

type Holder =
  | { kind: 'free' }
  | { kind: 'live'; pid: number | undefined }
  | { kind: 'dead'; entries: string[]; legacy: boolean };

// Who holds the lock now. A directory with no holder file is free (being released); a plain file is a lock
// written by an earlier version of this code: `<pid>\n`, or empty while its writer had not filled it yet.
async function holderOf(lock: string): Promise<Holder> {
  let names: string[];
  try {
    names = await readdir(lock);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { kind: 'free' };
    if (code !== 'ENOTDIR') throw new TrustStoreError('io_error', lock, `cannot read lock ${lock}: ${code}`);
    return legacyHolder(lock);
  }
  const holders = names.flatMap((name) => {
    const m = /^(\d+)\.[0-9a-f]+$/.exec(name);
    return m ? [{ name, pid: Number(m[1]) }] : [];
  });
  if (names.length === 0) {
    // Emptied by a release (or a takeover) that has not removed it yet: a rename in works all the same.
    await rmdir(lock).catch(onlyIf(lock, 'ENOENT', 'ENOTEMPTY', 'EEXIST'));
    return { kind: 'free' };
  }
  // Something else put files there: nobody can tell it is free, so it is waited for like a live holder.
  if (holders.length === 0) return { kind: 'live', pid: undefined };
  const dead = holders.filter((h) => !alive(h.pid)).map((h) => h.name);
  if (dead.length === holders.length) return { kind: 'dead', entries: dead, legacy: false };
  return { kind: 'live', pid: holders.find((h) => alive(h.pid))?.pid };
}

async function legacyHolder(lock: string): Promise<Holder> {
  let pid: number | undefined;
  try {
    const n = Number.parseInt(await readFile(lock, 'utf8'), 10);
    pid = Number.isInteger(n) && n > 0 ? n : undefined;
  } catch (err) {
    // Taken over since: gone, or a directory lock already stands there.
    onlyIf(lock, 'ENOENT', 'EISDIR')(err);
    return { kind: 'free' };
  }
  if (pid !== undefined)
    return alive(pid) ? { kind: 'live', pid } : { kind: 'dead', entries: [], legacy: true };
  return (await olderThan(lock, 2000))
    ? { kind: 'dead', entries: [], legacy: true }
    : { kind: 'live', pid: undefined };
}

async function removeDead(lock: string, holder: { entries: string[]; legacy: boolean }): Promise<void> {
  if (holder.legacy) {
    // Another process that judged the same file dead may have removed it and renamed its own lock in since.
    // unlink leaves that directory alone (EISDIR, EPERM on macOS): it was taken over, and this process tries
    // again. (rm threw on it, failing this process's write.)
    await unlink(lock).catch(onlyIf(lock, 'ENOENT', 'EISDIR', 'EPERM'));
    return;
  }
  // ENOENT: another process took this one over first; its own lock, if any, has another name.
  for (const name of holder.entries) await unlink(join(lock, name)).catch(onlyIf(lock, 'ENOENT'));
  await rmdir(lock).catch(onlyIf(lock, 'ENOENT', 'ENOTEMPTY', 'EEXIST'));
}

/** A catch handler that lets the expected outcomes of a race pass and makes any other failure an `io_error`. */
function onlyIf(lock: string, ...codes: string[]): (err: unknown) => void {
  return (err) => {
    if (codes.includes((err as NodeJS.ErrnoException).code ?? '')) return;
    throw new TrustStoreError(
      'io_error',
      lock,
      `cannot inspect or clear lock ${lock}: ${(err as Error).message}`,
    );
  };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function olderThan(lock: string, ms: number): Promise<boolean> {
  try {
    return Date.now() - (await stat(lock)).mtimeMs > ms;
  } catch (err) {
    onlyIf(lock, 'ENOENT')(err); // gone already: the next try creates it
    return false;
  }
}
