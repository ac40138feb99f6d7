import { isQualified, parseQualifiedUri, qualifyTemplate, qualifyUri } from '../registry/resource-uri.js';
import type { FleetResourceTemplate } from './resource-outcome.js';
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

  constructor(private readonly order: readonly string[]) {}

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

  /** Every ready server's templates in config order; one the same as an earlier server's is qualified. */
  templates(): FleetResourceTemplate[] {
    const out: FleetResourceTemplate[] = [];
    const seen = new Set<string>();
    for (const id of this.order) {
      for (const t of this.catalogs.get(id)?.templates ?? []) {
        const clash = seen.has(t.uriTemplate) || isQualified(t.uriTemplate);
        // A server that is down still holds its templates' form, as it holds its URIs'.
        seen.add(t.uriTemplate);
        if (!this.live.has(id)) continue;
        const uriTemplate = clash ? qualifyTemplate(id, t.uriTemplate) : t.uriTemplate;
        out.push({ ...(t.item as FleetResourceTemplate), uriTemplate });
      }
    }
    return out;
  }
}
