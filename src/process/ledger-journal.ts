import { appendFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import type { LedgerEntry } from './ledger.js';

/** The first line of a ledger file: whose it is. A file of the one-object format also carries `groups`. */
export interface LedgerHeader {
  host: { pid: number; procStart: number | null };
  owner?: string;
}

/** One line after the header: a group recorded (or grown), or a group forgotten. */
type JournalLine = { set: LedgerEntry } | { drop: number };

/** Lines written beyond the live groups before the file is written afresh. */
const SLACK = 64;

/**
 * One supervisor instance's ledger on disk as a journal: a header line, then one line per change, each appended
 * in one write as it happens — a thousand servers starting write a thousand short lines, not a thousand copies of
 * a growing file. The file is written afresh (a temporary file renamed over it) once its lines outnumber twice
 * the live groups, so it never grows far past them, and removed when no group is left.
 */
export class LedgerJournal {
  readonly #live = new Map<number, LedgerEntry>();
  /** Lines after the header in the file now; 0 while there is no file. */
  #lines = 0;

  constructor(
    private readonly path: string,
    private readonly header: LedgerHeader,
  ) {}

  /** A group recorded, or what is known of it grown. */
  set(entry: LedgerEntry): void {
    this.#live.set(entry.pgid, entry);
    this.#append({ set: entry });
  }

  /** A group forgotten; the file goes with the last one. */
  drop(pgid: number): void {
    if (!this.#live.delete(pgid)) return;
    if (this.#live.size === 0) this.close();
    else this.#append({ drop: pgid });
  }

  /** Removes the file. Idempotent. */
  close(): void {
    this.#live.clear();
    this.#lines = 0;
    rmSync(this.path, { force: true });
  }

  #append(line: JournalLine): void {
    if (this.#lines === 0 || this.#lines >= 2 * this.#live.size + SLACK) {
      this.#rewrite();
      return;
    }
    appendFileSync(this.path, `${JSON.stringify(line)}\n`, { mode: 0o600 });
    this.#lines++;
  }

  #rewrite(): void {
    const lines = [this.header, ...[...this.#live.values()].map((entry) => ({ set: entry }))];
    const tmp = `${this.path}.tmp`;
    writeFileSync(tmp, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`, { mode: 0o600 });
    renameSync(tmp, this.path);
    this.#lines = this.#live.size;
  }
}

/** What a ledger file says: its header, the groups still recorded at its end (unchecked), lines it could not read. */
export interface ReadLedger {
  header: Partial<LedgerHeader> & Record<string, unknown>;
  groups: unknown[];
  unreadable: string[];
}

/**
 * Reads a ledger file: the journal (a header line, then `set`/`drop` lines) or the one-object format an older
 * version wrote (`{ host, owner, groups }` on one line). Throws when even the header cannot be read; a later line
 * that cannot be read is named in `unreadable` and the rest still count.
 */
export function readLedger(text: string): ReadLedger {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  const header = JSON.parse(lines[0] ?? '') as ReadLedger['header'];
  if (typeof header !== 'object' || header === null) throw new Error('the first line is not an object');
  const groups = new Map<unknown, unknown>();
  const unkeyed: unknown[] = [];
  const keep = (raw: unknown) => {
    const pgid = (raw as { pgid?: unknown } | null)?.pgid;
    if (typeof pgid === 'number') groups.set(pgid, raw);
    else unkeyed.push(raw);
  };
  // The one-object format: every entry as written (it has no lines after it to set or drop them).
  if (Array.isArray(header.groups)) unkeyed.push(...header.groups);
  const unreadable: string[] = [];
  lines.slice(1).forEach((text, i) => {
    try {
      const line = JSON.parse(text) as Partial<{ set: unknown; drop: unknown }>;
      if (line.set !== undefined) keep(line.set);
      else if (typeof line.drop === 'number') groups.delete(line.drop);
      else throw new Error('neither set nor drop');
    } catch (err) {
      unreadable.push(`line ${i + 2}: ${(err as Error).message}`);
    }
  });
  return { header, groups: [...groups.values(), ...unkeyed], unreadable };
}
