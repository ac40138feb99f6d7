import type { CacheHint } from '../../protocol/tool-listing.js';
import type { SupervisorClock } from '../clock.js';

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

/** A list is kept no shorter than this, whatever ttl a server gives: a tiny one must not become a busy loop. */
const MIN_TTL_MS = 1000;
/** The longest delay a Node timer keeps (a longer one fires at once). */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * One re-list timer per server for lists other than tools (prompts, resources): armed by each listing with its
 * ttl (a `list_changed` re-list re-arms it, so nothing re-lists before the ttl but a change), off for a ttl of 0
 * or none, and on the host's clock when it gave one.
 */
export class ListTimers {
  private readonly timers = new Map<string, unknown>();
  private closed = false;

  constructor(private readonly clock?: SupervisorClock | undefined) {}

  arm(server: string, hint: CacheHint | undefined, relist: () => void): void {
    this.clear(server);
    if (this.closed || hint === undefined || hint.ttlMs <= 0) return;
    const timers = this.clock ?? unrefTimers;
    const ms = Math.min(MAX_TIMER_MS, Math.max(MIN_TTL_MS, hint.ttlMs));
    const timer = timers.setTimeout(() => {
      if (this.timers.get(server) !== timer) return;
      this.timers.delete(server);
      if (!this.closed) relist();
    }, ms);
    this.timers.set(server, timer);
  }

  clear(server: string): void {
    if (!this.timers.has(server)) return;
    (this.clock ?? unrefTimers).clearTimeout(this.timers.get(server));
    this.timers.delete(server);
  }

  /** Idempotent: no timer fires after this. */
  close(): void {
    this.closed = true;
    for (const server of [...this.timers.keys()]) this.clear(server);
  }
}

/** Real timers that never keep the host alive on their own. */
const unrefTimers: SupervisorClock = {
  setTimeout: (fn, ms) => setTimeout(fn, ms).unref(),
  clearTimeout: (t) => clearTimeout(t),
};
