import { mkdir, open, readFile, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { TrustStoreError } from './trust-error.js';

export interface FileLockOptions {
  /** Give up after this long while a live process holds the lock (default 10 s). */
  timeoutMs?: number;
  /** First wait between two tries; doubles up to 100 ms (default 5 ms). */
  retryMs?: number;
}

/**
 * Runs `op` while holding `<path>.lock`, an exclusive-create file naming the holder's pid, so that processes
 * sharing one store apply their read-change-write one at a time. A lock left by a process that died is taken
 * over; one held by a live process longer than the timeout is a `locked` error naming the holder, never a hang.
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
  for (;;) {
    const got = await tryCreate(lock);
    if (got) break;
    const holder = await holderOf(lock);
    if (holder === undefined ? await olderThan(lock, 2000) : !alive(holder)) {
      // Its holder is gone (crashed between create and remove); nobody else can free it.
      await rm(lock, { force: true });
      continue;
    }
    if (Date.now() >= end) {
      throw new TrustStoreError(
        'locked',
        path,
        `trust store ${path} is locked by process ${holder ?? '(unknown)'} (${lock}); remove the lock file if that process is gone`,
      );
    }
    await new Promise((r) => setTimeout(r, wait));
    wait = Math.min(wait * 2, 100);
  }
  try {
    return await op();
  } finally {
    await rm(lock, { force: true });
  }
}

async function tryCreate(lock: string): Promise<boolean> {
  let created = false;
  try {
    const fh = await open(lock, 'wx', 0o600);
    created = true;
    try {
      await fh.writeFile(`${process.pid}\n`, 'utf8');
    } finally {
      await fh.close();
    }
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    // A lock this process created but could not fill (a full disk) is its own to remove.
    if (created) await rm(lock, { force: true });
    throw new TrustStoreError('io_error', lock, `cannot create lock ${lock}: ${(err as Error).message}`);
  }
}

// undefined while the holder has created the file but not yet written its pid (or died in between).
async function holderOf(lock: string): Promise<number | undefined> {
  try {
    const pid = Number.parseInt(await readFile(lock, 'utf8'), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
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
  } catch {
    return false; // gone already: the next try creates it
  }
}
