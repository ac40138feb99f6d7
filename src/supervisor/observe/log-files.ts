import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  renameSync,
  type Stats,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { checkPrivateDir } from '../../process/state-dir-safety.js';

// Never through a symlink; O_NONBLOCK so that a FIFO planted in its place cannot hang the host on open.
const OPEN_FLAGS =
  constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** A name in the log directory that is not a regular file of ours: it is neither written, renamed nor removed. */
class NotOurs extends Error {
  constructor(
    readonly path: string,
    readonly why: string,
  ) {
    super(`${path} ${why}`);
  }
}

/**
 * One server's log as size-rotated files: `<id>.log`, then `<id>.log.1` … `<id>.log.<keep-1>` (oldest last).
 * Written synchronously through one descriptor so lines land in order; stderr lines arrive rate-limited, so the
 * writes stay small. Only regular files owned by us, with no other name, are written, renamed or removed: a
 * symlink or someone else's file at one of the names stops the files (one warning), and the ring keeps the lines.
 */
export class RotatingLog {
  private fd: number | undefined;
  private bytes = 0;
  private broken = false;
  private closed = false;

  constructor(
    private readonly dir: string,
    private readonly name: string,
    private readonly keep: number,
    private readonly size: number,
    private readonly warn: (message: string) => void = () => {},
  ) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    checkPrivateDir(dir);
  }

  write(line: string): void {
    if (this.broken || this.closed) return;
    const data = `${line}\n`;
    const n = Buffer.byteLength(data);
    try {
      this.fd ??= this.open();
      if (this.bytes > 0 && this.bytes + n > this.size) {
        this.rotate();
        this.fd = this.open();
      }
      writeSync(this.fd, data);
      this.bytes += n;
    } catch (err) {
      // A full disk, or a name that is not ours, must not take the fleet down: the ring still keeps the lines.
      this.broken = true;
      this.closeFd();
      const what =
        err instanceof NotOurs ? `${err.message}: refused` : `${this.path(0)}: ${(err as Error).message}`;
      this.warn(`log file ${what}; logs of ${this.name} are no longer written to files`);
    }
  }

  /** Closes the file; idempotent. */
  close(): void {
    this.closed = true;
    this.closeFd();
  }

  private open(): number {
    const path = this.path(0);
    let fd: number;
    try {
      fd = openSync(path, OPEN_FLAGS, 0o600);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ELOOP') throw new NotOurs(path, 'is a symbolic link');
      throw err;
    }
    // Checked on the open file itself, so nothing can be swapped in between the check and the writes.
    const st = fstatSync(fd);
    const why = notOurs(st);
    if (why) {
      closeSync(fd);
      throw new NotOurs(path, why);
    }
    this.bytes = st.size;
    return fd;
  }

  private rotate(): void {
    // Every name is checked before any is touched, so a refusal leaves the files as they were.
    const present: boolean[] = [];
    for (let i = 0; i < this.keep; i++) {
      const st = lstatOrUndefined(this.path(i));
      const why = st && notOurs(st);
      if (why) throw new NotOurs(this.path(i), why);
      present.push(st !== undefined);
    }
    this.closeFd();
    if (present[this.keep - 1]) unlinkSync(this.path(this.keep - 1));
    for (let i = this.keep - 2; i >= 0; i--) {
      // A gap in the numbering (a file removed by hand) is fine.
      if (present[i]) renameSync(this.path(i), this.path(i + 1));
    }
    this.bytes = 0;
  }

  private closeFd(): void {
    if (this.fd === undefined) return;
    const fd = this.fd;
    this.fd = undefined;
    try {
      closeSync(fd);
    } catch {
      // Nothing is lost: every write went out synchronously.
    }
  }

  private path(i: number): string {
    return join(this.dir, i === 0 ? `${this.name}.log` : `${this.name}.log.${i}`);
  }
}

/** Why a file is not ours to write, rename or remove, or undefined when it is. */
function notOurs(st: Stats): string | undefined {
  if (st.isSymbolicLink()) return 'is a symbolic link';
  if (!st.isFile()) return 'is not a regular file';
  const uid = process.getuid?.();
  if (uid !== undefined && st.uid !== uid) return `is owned by uid ${st.uid}`;
  // A hard link would make a write here land in a file that has another name elsewhere.
  if (st.nlink > 1) return `has ${st.nlink} names (hard links)`;
  return undefined;
}

function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** Where a server's log files go inside the state directory. */
export function logFilesDir(stateDir: string): string {
  return join(stateDir, 'logs');
}
