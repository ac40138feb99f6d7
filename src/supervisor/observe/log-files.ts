import { appendFileSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * One server's log as size-rotated files: `<id>.log`, then `<id>.log.1` … `<id>.log.<keep-1>` (oldest last).
 * Written synchronously so lines land in order; stderr lines arrive rate-limited, so the writes stay small.
 */
export class RotatingLog {
  private bytes: number;
  private broken = false;

  constructor(
    private readonly dir: string,
    private readonly name: string,
    private readonly keep: number,
    private readonly size: number,
    private readonly warn: (message: string) => void = () => {},
  ) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    try {
      this.bytes = statSync(this.path(0)).size;
    } catch {
      this.bytes = 0;
    }
  }

  write(line: string): void {
    if (this.broken) return;
    const data = `${line}\n`;
    const n = Buffer.byteLength(data);
    try {
      if (this.bytes > 0 && this.bytes + n > this.size) this.rotate();
      appendFileSync(this.path(0), data, { mode: 0o600 });
      this.bytes += n;
    } catch (err) {
      // A full disk must not take the fleet down: the ring still keeps the lines.
      this.broken = true;
      this.warn(`log file ${this.path(0)}: ${(err as Error).message}; no longer written`);
    }
  }

  private rotate(): void {
    rmSync(this.path(this.keep - 1), { force: true });
    for (let i = this.keep - 2; i >= 0; i--) {
      try {
        renameSync(this.path(i), this.path(i + 1));
      } catch {
        // A gap in the numbering (a file removed by hand) is fine.
      }
    }
    if (this.keep === 1) rmSync(this.path(0), { force: true });
    this.bytes = 0;
  }

  private path(i: number): string {
    return join(this.dir, i === 0 ? `${this.name}.log` : `${this.name}.log.${i}`);
  }
}

/** Where a server's log files go inside the state directory. */
export function logFilesDir(stateDir: string): string {
  return join(stateDir, 'logs');
}
