import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { withFileLock } from './file-lock.js';
import type { FingerprintFacts } from './fingerprint.js';
import { readStoreFile, type StoreData, type TrustRecord, writeStoreFile } from './store-file.js';
import { TrustStoreError } from './trust-error.js';

export type { TrustRecord };

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

  /** The record of one server, if it was ever approved. */
  get(id: string): TrustRecord | undefined {
    const rec = this.data.servers[id];
    return rec === undefined ? undefined : structuredClone(rec);
  }

  /** True when exactly this fingerprint was approved for this server. */
  isTrusted(id: string, fingerprint: string): boolean {
    return this.data.servers[id]?.fingerprint === fingerprint;
  }

  /** Every record, by server id. */
  list(): TrustRecord[] {
    return Object.keys(this.data.servers)
      .sort()
      .map((id) => structuredClone(this.data.servers[id]!));
  }

  /** The pinned tool hashes of a server (name → hash), or undefined before its tools were first pinned. */
  toolPins(id: string): Record<string, string> | undefined {
    const tools = this.data.servers[id]?.tools;
    return tools === undefined ? undefined : { ...tools };
  }

  /**
   * Records an approval. Pinned tools of an earlier approval are kept: a new binary that also changed its
   * tools gets those tools held until they are approved too.
   */
  async approve(id: string, fingerprint: string, facts: FingerprintFacts): Promise<TrustRecord> {
    return this.update((data) => {
      const tools = data.servers[id]?.tools;
      const rec: TrustRecord = {
        id,
        fingerprint,
        facts: structuredClone(facts),
        approvedAt: new Date().toISOString(),
      };
      if (tools !== undefined) rec.tools = tools;
      data.servers[id] = rec;
      return { changed: true, result: structuredClone(rec) };
    });
  }

  /** Forgets a server (and its pins); false when it was not in the store. */
  async revoke(id: string): Promise<boolean> {
    return this.update((data) => {
      if (data.servers[id] === undefined) return { changed: false, result: false };
      delete data.servers[id];
      return { changed: true, result: true };
    });
  }

  /** Replaces a trusted server's tool pins; throws `not_trusted` for a server without a record. */
  async pinTools(id: string, pins: Readonly<Record<string, string>>): Promise<void> {
    await this.update((data) => {
      const rec = data.servers[id];
      if (rec === undefined) {
        throw new TrustStoreError(
          'not_trusted',
          this.path,
          `cannot pin tools of ${id}: it is not in the trust store`,
        );
      }
      rec.tools = { ...pins };
      return { changed: true, result: undefined };
    });
  }

  // Re-read, apply one change, write: the file on disk, not this copy, is what a change applies to.
  private update<T>(change: (data: StoreData) => { changed: boolean; result: T }): Promise<T> {
    return this.serialized(() =>
      withFileLock(this.path, async () => {
        const fresh = await readStoreFile(this.path);
        const { changed, result } = change(fresh);
        if (changed) await writeStoreFile(this.path, fresh);
        this.data = fresh;
        return result;
      }),
    );
  }

  private serialized<T>(op: () => Promise<T>): Promise<T> {
    const run = this.queue.then(op);
    this.queue = run.catch(() => undefined);
    return run;
  }
}
