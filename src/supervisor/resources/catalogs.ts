import type { ServerConfig } from '../../config/types.js';
import { isRecord } from '../../framing/is-record.js';
import type { McpConnection } from '../../protocol/connection.js';
import { describeCut } from '../../protocol/tool-listing.js';
import type { HeldName } from '../../registry/name-claims.js';
import { clampTimeout } from '../calls/call-check.js';
import type { SupervisorClock } from '../options.js';
import { type CacheHint, ListHints, ListTimers } from '../runtime/list-hints.js';
import type { NoticeCode } from '../types.js';
import { ResourceRoutes } from './routes.js';
import { loadCatalog } from './server-resources.js';

/** What the catalogs tell and ask of the fleet's resources. */
export interface CatalogHost {
  connection: (id: string) => McpConnection | undefined;
  /** A server's resources came, went or changed. */
  changed: (server: string) => void;
  held?: ((names: HeldName[]) => void) | undefined;
  clock?: SupervisorClock | undefined;
  /** A server's first catalog since it became ready was read on `conn`. */
  caught: (id: string, conn: McpConnection) => void;
  /** A coded notice about a server's lists (a listing cut short). */
  notice?: ((server: string, code: NoticeCode, message: string) => void) | undefined;
}

/**
 * Each server's catalog of resources and templates (read at ready, again at `list_changed` or when its ttl runs
 * out), the routes they make, and their cache hints.
 */
export class ResourceCatalogs {
  readonly routes: ResourceRoutes;
  private readonly loading = new Map<string, Promise<void>>();
  private order: string[];
  private byId: Map<string, ServerConfig>;
  /** Each server's latest `resources/list` and `resources/templates/list` cache hints (MCP 2026-07-28). */
  private readonly hints = { resources: new ListHints(), templates: new ListHints() };
  /** The catalog's re-read when the shorter of its lists' ttls runs out. */
  private readonly ttl: ListTimers;

  constructor(
    servers: readonly ServerConfig[],
    private readonly host: CatalogHost,
  ) {
    this.order = servers.map((s) => s.id);
    const ownNames = servers.filter((s) => s.namespace === false).map((s) => s.id);
    this.routes = new ResourceRoutes(this.order, new Set(ownNames));
    this.byId = new Map(servers.map((s) => [s.id, s]));
    this.ttl = new ListTimers(host.clock);
  }

  /** The configured servers, in config order. */
  get servers(): readonly string[] {
    return this.order;
  }

  configured(id: string): boolean {
    return this.byId.has(id);
  }

  cacheHint(list: 'resources' | 'templates'): CacheHint | undefined {
    const offering = this.order.filter((id) => this.routes.has(id));
    return offering.length === 0 ? undefined : this.hints[list].fleet(offering);
  }

  /** A reload's servers: `gone` hears each one no longer configured before its URIs stop routing. */
  reconfigure(servers: readonly ServerConfig[], gone: (id: string) => void): void {
    const next = new Map(servers.map((s) => [s.id, s]));
    for (const id of this.order) {
      if (next.has(id)) continue;
      gone(id);
      this.loading.delete(id);
      if (this.routes.drop(id)) this.host.changed(id);
    }
    this.order = servers.map((s) => s.id);
    this.byId = next;
    const ownNames = servers.filter((s) => s.namespace === false).map((s) => s.id);
    this.routes.reconfigure(this.order, new Set(ownNames));
    this.host.held?.(this.routes.held());
  }

  /** A ready server not yet catalogued (nor being read) is read now. */
  ready(id: string): void {
    if (!this.routes.has(id) && !this.loading.has(id)) this.load(id, true);
  }

  /** A server that is no longer up: its catalog, hints and ttl go. */
  down(id: string): void {
    this.ttl.clear(id);
    this.hints.resources.set(id, 0, undefined);
    this.hints.templates.set(id, 0, undefined);
    // Both go: a reload still running for the old process must not hold off the next one.
    const had = this.routes.drop(id);
    if (this.loading.delete(id) || had) {
      this.host.held?.(this.routes.held());
      this.host.changed(id);
    }
  }

  /** The server said its resources changed: a catalogued one is read again. */
  listChanged(id: string): void {
    if (this.routes.has(id)) this.load(id, false);
  }

  /** Waits for catalogs being read, so a collision with a server still loading is not missed. */
  async settled(): Promise<void> {
    if (this.loading.size > 0) await Promise.allSettled([...this.loading.values()]);
  }

  timeoutOf(id: string): number {
    return clampTimeout(this.byId.get(id)?.timeouts.callMs ?? 30_000);
  }

  closeTimers(): void {
    this.ttl.close();
  }

  private load(id: string, fresh: boolean): void {
    const conn = this.host.connection(id);
    const caps = conn?.serverInit?.capabilities;
    if (!conn || !isRecord(caps) || !isRecord(caps.resources)) return;
    const job = loadCatalog(conn, this.timeoutOf(id)).then((catalog) => {
      if (this.loading.get(id) !== job) return;
      this.loading.delete(id);
      if (this.host.connection(id) !== conn) return;
      if (catalog.cuts) {
        // A cut list did not reach the end of the server's resources: a re-read keeps the catalog it had, as a
        // cut tools/list keeps the last good tool set; a first read starts with what it got.
        const kept = this.routes.has(id);
        const then = kept ? 'keeping the last good resource lists' : 'starting with the pages taken';
        for (const { method, cut } of catalog.cuts)
          this.host.notice?.(id, 'LISTING_CUT', `${describeCut(cut, method)}; ${then}`);
        if (kept) return;
      }
      this.routes.set(id, catalog);
      this.hints.resources.set(id, 0, catalog.hints.resources);
      this.hints.templates.set(id, 0, catalog.hints.templates);
      // Read again when the shorter ttl runs out (a list_changed before it reads it again, and re-arms).
      this.ttl.arm(id, shorter(catalog.hints.resources, catalog.hints.templates), () => {
        if (this.host.connection(id) === conn && this.routes.has(id)) this.load(id, false);
      });
      if (fresh) this.host.caught(id, conn);
      this.host.held?.(this.routes.held());
      this.host.changed(id);
    });
    this.loading.set(id, job);
  }
}

/** The hint with the shorter ttl; either, when only one is given. */
function shorter(a: CacheHint | undefined, b: CacheHint | undefined): CacheHint | undefined {
  if (!a || !b) return a ?? b;
  return a.ttlMs <= b.ttlMs ? a : b;
}
