import type { CacheHint } from '../protocol/tool-listing.js';

export type { CacheHint };

type Watcher = (hint: CacheHint | undefined) => void;

/**
 * The cache hints each server's latest `tools/list` gave (MCP 2026-07-28 `ttlMs`, `cacheScope`), by server and
 * spawn: the process actor re-lists when a hint's ttl runs out, and the fleet's hint is what a gateway may tell
 * its own clients.
 */
export class ListHints {
  private readonly hints = new Map<string, { generation: number; hint: CacheHint | undefined }>();
  private readonly watchers = new Map<string, { generation: number; watcher: Watcher }>();

  /** A listing of this spawn finished: its hint (or none) replaces the last, and the spawn's watcher hears of it. */
  set(server: string, generation: number, hint: CacheHint | undefined): void {
    this.hints.set(server, { generation, hint });
    const w = this.watchers.get(server);
    if (w?.generation === generation) w.watcher(hint);
  }

  /** Tells `watcher` of each new hint of this spawn; returns the function that stops it. */
  watch(server: string, generation: number, watcher: Watcher): () => void {
    const entry = { generation, watcher };
    this.watchers.set(server, entry);
    return () => {
      if (this.watchers.get(server) === entry) this.watchers.delete(server);
    };
  }

  /**
   * The fleet's hint over the given servers: the shortest ttl, `private` if any server's is. Undefined when one of
   * them gave no hint (nothing says its list may be kept) or none is given.
   */
  fleet(servers: readonly string[]): CacheHint | undefined {
    let out: CacheHint | undefined;
    for (const id of servers) {
      const hint = this.hints.get(id)?.hint;
      if (!hint) return undefined;
      out = out
        ? {
            ttlMs: Math.min(out.ttlMs, hint.ttlMs),
            cacheScope: out.cacheScope === 'private' || hint.cacheScope === 'private' ? 'private' : 'public',
          }
        : { ...hint };
    }
    return out;
  }
}
