import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { withFileLock } from './file-lock.js';
import type { FingerprintFacts } from './fingerprint.js';
import { readStoreFile, type StoreData, type TrustRecord, writeStoreFile } from './store-file.js';
import { TrustStoreError } from './trust-error.js';
import { parseTrustKey } from './trust-key.js';

export type { TrustRecord };

/** One change waiting for a write of the store. */
interface PendingChange {
  change: (data: StoreData) => { changed: boolean; result: unknown };
  resolve: (result: unknown) => void;
  reject: (err: unknown) => void;
}

/** `$XDG_CONFIG_HOME/mcp-supervisor/trust.json`, else `~/.config/mcp-supervisor/trust.json`. */
export function defaultTrustStorePath(
  env: Readonly<Record<string, string | undefined>> = process.env,
): string {
  const xdg = env['XDG_CONFIG_HOME'];
  // The XDG spec says a relative value is invalid and must be ignored.
  const base = xdg && isAbsolute(xdg) ? xdg : join(env['HOME'] || homedir(), '.config');
  return join(base, 'mcp-supervisor', 'trust.json');
}

/**
 * The trust-on-first-use store: which fingerprint of each server was approved, and its pinned tools.
 * Reads answer from the copy loaded at `open` (or the last write, or `reload`). Every write re-reads the file
 * and applies just its own change to what is on disk before the atomic rename, under a lock file, so
 * supervisors sharing one store do not drop each other's records; writes of one instance are serialized.
 */
export class TrustStore {
  private queue: Promise<unknown> = Promise.resolve();
  /** Changes waiting for the next write, while one is under way. */
  private batch: PendingChange[] | undefined;

  private constructor(
    /** The store file. */
    readonly path: string,
    private data: StoreData,
  ) {}

  /** Opens a store; a missing file is an empty store, a corrupt one throws `TrustStoreError` `corrupt_store`. */
  static async open(path: string = defaultTrustStorePath()): Promise<TrustStore> {
    const abs = resolve(path);
    return new TrustStore(abs, await readStoreFile(abs));
  }

  /** Re-reads the file, picking up approvals and revocations made by others. */
  async reload(): Promise<void> {
    await this.serialized(async () => {
      this.data = await readStoreFile(this.path);
    });
  }

  /** The record under `key` (`trustKey(id, configFile)`), if that server was ever approved. */
  get(key: string): TrustRecord | undefined {
    const rec = this.data.servers[key];
    return rec === undefined ? undefined : structuredClone(rec);
  }

  /** True when exactly this fingerprint was approved for this server. */
  isTrusted(key: string, fingerprint: string): boolean {
    return this.data.servers[key]?.fingerprint === fingerprint;
  }

  /** Every record, by key (server id, then config file). */
  list(): TrustRecord[] {
    return Object.keys(this.data.servers)
      .sort()
      .map((key) => structuredClone(this.data.servers[key]!));
  }

  /** The keys of every record of server `id`, whatever its config file. */
  keysOf(id: string): string[] {
    return Object.keys(this.data.servers)
      .filter((key) => parseTrustKey(key).id === id)
      .sort();
  }

  /** The pinned tool hashes of a server (name → hash), or undefined before its tools were first pinned. */
  toolPins(key: string): Record<string, string> | undefined {
    const tools = this.data.servers[key]?.tools;
    return tools === undefined ? undefined : { ...tools };
  }

  /**
   * Records an approval. Pinned tools of an earlier approval are kept: a new binary that also changed its
   * tools gets those tools held until they are approved too.
   */
  async approve(key: string, fingerprint: string, facts: FingerprintFacts): Promise<TrustRecord> {
    return this.update((data) => {
      const tools = data.servers[key]?.tools;
      const rec: TrustRecord = {
        ...parseTrustKey(key),
        fingerprint,
        facts: structuredClone(facts),
        approvedAt: new Date().toISOString(),
      };
      if (tools !== undefined) rec.tools = tools;
      data.servers[key] = rec;
      return { changed: true, result: structuredClone(rec) };
    });
  }

  /** Forgets a server (and its pins); false when it was not in the store. */
  async revoke(key: string): Promise<boolean> {
    return this.update((data) => {
      if (data.servers[key] === undefined) return { changed: false, result: false };
      delete data.servers[key];
      return { changed: true, result: true };
    });
  }

  /** Replaces a trusted server's tool pins; throws `not_trusted` for a server without a record. */
  async pinTools(key: string, pins: Readonly<Record<string, string>>): Promise<void> {
    await this.update((data) => {
      const rec = data.servers[key];
      if (rec === undefined) {
        throw new TrustStoreError(
          'not_trusted',
          this.path,
          `cannot pin tools of ${parseTrustKey(key).id}: it is not in the trust store`,
        );
      }
      rec.tools = { ...pins };
      return { changed: true, result: undefined };
    });
  }

  /**
   * Re-read, apply the changes, write: the file on disk, not this copy, is what a change applies to. Changes asked
   * for while a write is under way go together in the next one (a fleet of a thousand servers approved at once
   * reads and writes the store a few times, not a thousand); each caller still gets its own result once the file
   * holding its change is written, or the error of that write.
   */
  private update<T>(change: (data: StoreData) => { changed: boolean; result: T }): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const item: PendingChange = {
        change: change as PendingChange['change'],
        resolve: resolve as PendingChange['resolve'],
        reject,
      };
      if (this.batch) {
        this.batch.push(item);
        return;
      }
      const batch = [item];
      this.batch = batch;
      void this.serialized(async () => {
        // From here on a new change starts the next batch.
        this.batch = undefined;
        try {
          // Answered once the lock is let go: a caller may look at the directory as soon as it has its answer.
          const outcomes = await withFileLock(this.path, async () => {
            const fresh = await readStoreFile(this.path);
            const done = batch.map((it) => {
              try {
                return { ok: true as const, ...it.change(fresh) };
              } catch (err) {
                return { ok: false as const, err };
              }
            });
            if (done.some((o) => o.ok && o.changed)) await writeStoreFile(this.path, fresh);
            this.data = fresh;
            return done;
          });
          outcomes.forEach((o, i) => {
            const it = batch[i] as PendingChange;
            if (o.ok) it.resolve(o.result);
            else it.reject(o.err);
          });
        } catch (err) {
          for (const it of batch) it.reject(err);
        }
      });
    });
  }

  private serialized<T>(op: () => Promise<T>): Promise<T> {
    const run = this.queue.then(op);
    this.queue = run.catch(() => undefined);
    return run;
  }
}
