import type { HeldName } from '../../registry/name-claims.js';
import { isQualified, parseQualifiedUri, qualifyTemplate, qualifyUri } from '../../registry/resource-uri.js';
import type { FleetResourceTemplate } from './outcome.js';
import { matchesTemplate, type ServerCatalog } from './server-resources.js';

/**
 * Which server a resource URI belongs to and which URI a client sees for a server's own (docs/registry.md,
 * "Resource URIs"), from the servers' catalogs in config order. A server that goes down keeps its last catalog
 * for routing, so its URIs still lead to it (a read waits for it to come back) and no other server's URI changes
 * form while it restarts; only the ready ones are listed.
 */
export class ResourceRoutes {
  private readonly catalogs = new Map<string, ServerCatalog>();
  private readonly live = new Set<string>();

  constructor(
    private order: readonly string[],
    /** Servers with `namespace: false`: a URI of theirs is never qualified, it is held back instead. */
    private ownNames: ReadonlySet<string> = new Set(),
  ) {}

  /** A reload's servers: the catalog of one no longer configured goes, so none of its URIs routes anywhere. */
  reconfigure(order: readonly string[], ownNames: ReadonlySet<string>): void {
    for (const id of [...this.catalogs.keys()]) {
      if (order.includes(id)) continue;
      this.catalogs.delete(id);
      this.live.delete(id);
    }
    this.order = order;
    this.ownNames = ownNames;
  }

  set(server: string, catalog: ServerCatalog): void {
    this.catalogs.set(server, catalog);
    this.live.add(server);
  }

  /** A server is down: it is listed no more, but its last catalog still routes; true when it was listed. */
  drop(server: string): boolean {
    return this.live.delete(server);
  }

  /** Whether a server is ready with a catalog (and so listed). */
  has(server: string): boolean {
    return this.live.has(server);
  }

  clear(): void {
    this.catalogs.clear();
    this.live.clear();
  }

  /** The server a URI routes to: the one it names, else the first in config order listing it or a matching template. */
  ownerOf(uri: string): { server: string; uri: string } | undefined {
    const named = parseQualifiedUri(uri);
    if (named) return this.order.includes(named.server) ? named : undefined;
    const listed = this.order.find((id) => this.catalogs.get(id)?.uris.has(uri));
    if (listed) return { server: listed, uri };
    const templated = this.order.find((id) => {
      const c = this.catalogs.get(id);
      return c !== undefined && matchesTemplate(c, uri);
    });
    if (templated) return { server: templated, uri };
    const offering = this.order.filter((id) => this.catalogs.has(id));
    return offering.length === 1 ? { server: offering[0]!, uri } : undefined;
  }

  /** Plain when the plain URI routes back to `server`, else qualified: every exposed URI reads from its server. */
  expose(server: string, uri: string): string {
    return isQualified(uri) || this.ownerOf(uri)?.server !== server ? qualifyUri(server, uri) : uri;
  }

  /**
   * The server a URI of a `namespace: false` server is held back for: the one its plain form routes to, when that
   * is another (an earlier server lists it, or has a template matching it). Undefined for any other server's URI,
   * and for one in the fleet's scheme (exposed qualified, as ever).
   */
  heldFor(server: string, uri: string): string | undefined {
    if (!this.ownNames.has(server) || isQualified(uri)) return undefined;
    const owner = this.ownerOf(uri)?.server;
    return owner !== undefined && owner !== server ? owner : undefined;
  }

  /** Every URI and template of a ready `namespace: false` server that is held back now, for the notices. */
  held(): HeldName[] {
    const out: HeldName[] = [];
    for (const id of this.order) {
      const catalog = this.catalogs.get(id);
      if (!this.ownNames.has(id) || !this.live.has(id) || !catalog) continue;
      for (const uri of catalog.uris) {
        const heldFor = this.heldFor(id, uri);
        if (heldFor !== undefined) out.push({ kind: 'resource', server: id, name: uri, heldFor });
      }
    }
    const firstOf = new Map<string, string>();
    this.eachTemplate((id, t) => {
      const first = firstOf.get(t.uriTemplate);
      if (first === undefined) firstOf.set(t.uriTemplate, id);
      else if (first !== id && this.ownNames.has(id) && this.live.has(id))
        out.push({ kind: 'resource', server: id, name: t.uriTemplate, heldFor: first });
    });
    return out;
  }

  /**
   * Every ready server's templates in config order; one the same as an earlier server's is qualified, or for a
   * `namespace: false` server held back.
   */
  templates(): FleetResourceTemplate[] {
    const out: FleetResourceTemplate[] = [];
    const seen = new Set<string>();
    this.eachTemplate((id, t) => {
      const clash = seen.has(t.uriTemplate) || isQualified(t.uriTemplate);
      // A server that is down still holds its templates' form, as it holds its URIs'.
      seen.add(t.uriTemplate);
      if (!this.live.has(id) || (clash && this.ownNames.has(id) && !isQualified(t.uriTemplate))) return;
      const uriTemplate = clash ? qualifyTemplate(id, t.uriTemplate) : t.uriTemplate;
      out.push({ ...(t.item as FleetResourceTemplate), uriTemplate });
    });
    return out;
  }

  private eachTemplate(visit: (server: string, t: ServerCatalog['templates'][number]) => void): void {
    for (const id of this.order) for (const t of this.catalogs.get(id)?.templates ?? []) visit(id, t);
  }
}
