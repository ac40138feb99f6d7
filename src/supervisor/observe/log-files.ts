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

/** What waits for the next turn of the event loop before it is written at once. */
const BATCH_BYTES = 64 * 1024;

/**
 * One server's log as size-rotated files: `<id>.log`, then `<id>.log.1` … `<id>.log.<keep-1>` (oldest last).
 * Lines are gathered and written synchronously through one descriptor, in order, once per turn of the event loop
 * or every {@link BATCH_BYTES}: a server may write every stderr line it has as fast as it can, and a write per line
 * would cost a system call each. Only regular files owned by us, with no other name, are written, renamed or
 * removed: a symlink or someone else's file at one of the names stops the files (one warning), and the ring keeps
 * the lines.
 */
export class RotatingLog {
  private fd: number | undefined;
  private bytes = 0;
  private broken = false;
  private closed = false;
  private pending: string[] = [];
  private pendingSizes: number[] = [];
  private pendingBytes = 0;
  private scheduled: NodeJS.Immediate | undefined;

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
    this.pending.push(data);
    this.pendingSizes.push(n);
    this.pendingBytes += n;
    if (this.pendingBytes >= BATCH_BYTES) this.flush();
    else
      this.scheduled ??= setImmediate(() => {
        if (!this.closed) this.flush();
      });
  }

  /** Writes what waits, then closes the file and writes nothing more; idempotent. */
  close(): void {
    if (this.closed) return;
    this.flush();
    this.closed = true;
    this.closeFd();
  }

  private flush(): void {
    if (this.scheduled) clearImmediate(this.scheduled);
    this.scheduled = undefined;
    const lines = this.pending;
    const sizes = this.pendingSizes;
    this.pending = [];
    this.pendingSizes = [];
    this.pendingBytes = 0;
    if (this.broken || lines.length === 0) return;
    let from = 0;
    try {
      this.fd ??= this.open();
      for (let i = 0; i < lines.length; i++) {
        if (this.bytes > 0 && this.bytes + sizes[i]! > this.size) {
          // What fits goes to the current file before it is rotated away.
          this.append(this.fd, lines, from, i);
          from = i;
          this.rotate();
          this.fd = this.open();
        }
        this.bytes += sizes[i]!;
      }
      this.append(this.fd, lines, from, lines.length);
    } catch (err) {
      // A full disk, or a name that is not ours, must not take the fleet down: the ring still keeps the lines.
      this.broken = true;
      this.closeFd();
      const what =
        err instanceof NotOurs ? `${err.message}: refused` : `${this.path(0)}: ${(err as Error).message}`;
      this.warn(`log file ${what}; logs of ${this.name} are no longer written to files`);
    }
  }

  private append(fd: number, lines: string[], from: number, to: number): void {
    if (to <= from) return;
    const data = Buffer.from(lines.slice(from, to).join(''));
    // A write may take less than it was given (a nearly full disk); what is left goes in the next.
    for (let off = 0; off < data.length; ) {
      const n = writeSync(fd, data, off);
      if (n <= 0) throw new Error('the log file took no bytes');
      off += n;
    }
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
