import { mkdirSync, type Stats, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Why a directory is refused: `WORLD_WRITABLE` (o+w), `GROUP_WRITABLE` (g+w on a directory another user owns),
 * `NOT_OURS` (owned by a user other than us and root, who can write it whatever its mode).
 */
export type StateDirUnsafeReason = 'WORLD_WRITABLE' | 'GROUP_WRITABLE' | 'NOT_OURS';

const WHY: Record<StateDirUnsafeReason, string> = {
  WORLD_WRITABLE: 'any user can write in it (o+w)',
  GROUP_WRITABLE: 'its group can write in it (g+w) and it is not ours',
  NOT_OURS: 'another user owns it',
};

/**
 * A state directory (or its `logs/`) that someone else can write: they could plant a symlink where we write a log,
 * a ledger or a socket, and make us write, rename or signal on their behalf. Nothing is written there.
 */
export class StateDirUnsafeError extends Error {
  override readonly name = 'StateDirUnsafeError';
  readonly code = 'STATE_DIR_UNSAFE';

  constructor(
    readonly dir: string,
    /** The permission bits (`0o777` and below). */
    readonly mode: number,
    readonly owner: number,
    readonly reason: StateDirUnsafeReason,
  ) {
    super(
      `state directory ${dir} is unsafe: mode ${octal(mode)}, owner uid ${owner}: ${WHY[reason]}; ` +
        'make it private to this user (chmod 700) or choose another',
    );
  }
}

/**
 * Makes `dir` ready to hold our files: created 0700 when missing, then refused (StateDirUnsafeError) when it or
 * its `logs/` can be written by another user. Other failures (a file in the way, no permission) are thrown as
 * they come. Without uids (Windows) there is nothing to check.
 */
export function secureStateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  checkPrivateDir(dir);
  checkPrivateDir(join(dir, 'logs'));
}

/**
 * {@link secureStateDir} where only the refusal matters: any other failure is left to the first use of the
 * directory, which reports it there (a host runs without a ledger, a control socket is not opened). Checking once,
 * up front, is enough: no one else can loosen a directory we own.
 */
export function refuseUnsafeStateDir(dir: string): void {
  try {
    secureStateDir(dir);
  } catch (err) {
    if (err instanceof StateDirUnsafeError) throw err;
  }
}

/** Throws StateDirUnsafeError when the directory at `dir` exists and can be written by another user. */
export function checkPrivateDir(dir: string): void {
  const uid = process.getuid?.();
  if (uid === undefined) return;
  let st: Stats;
  try {
    st = statSync(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  const reason = unsafeBecause(st, uid);
  if (reason) throw new StateDirUnsafeError(dir, st.mode & 0o777, st.uid, reason);
}

function unsafeBecause(st: Stats, uid: number): StateDirUnsafeReason | undefined {
  if (st.mode & 0o002) return 'WORLD_WRITABLE';
  if (st.uid !== uid && st.mode & 0o020) return 'GROUP_WRITABLE';
  // Root can write anywhere anyway; anyone else owning it can chmod it open or plant files in it.
  if (st.uid !== uid && st.uid !== 0) return 'NOT_OURS';
  return undefined;
}

function octal(mode: number): string {
  return `0${mode.toString(8).padStart(3, '0')}`;
}
