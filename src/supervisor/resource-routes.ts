import { isQualified, parseQualifiedUri, qualifyTemplate, qualifyUri } from '../registry/resource-uri.js';
import type { FleetResourceTemplate } from './resource-outcome.js';
import { matchesTemplate, type ServerCatalog } from './server-resources.js';

/**
 * Which server a resource URI belongs to and which URI a client sees for a server's own (docs/registry.md,
 * "Resource URIs"), from the catalogs of the ready servers that offer resources, in config order.
 */
export class ResourceRoutes {
  private readonly catalogs = new Map<string, ServerCatalog>();

  constructor(private readonly order: readonly string[]) {}

  set(server: string, catalog: ServerCatalog): void {
    this.catalogs.set(server, catalog);
  }

  /** Forgets a server's catalog; true when it had one. */
  drop(server: string): boolean {
    return this.catalogs.delete(server);
  }

  has(server: string): boolean {
    return this.catalogs.has(server);
  }

  clear(): void {
    this.catalogs.clear();
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

  /** Every catalogued template in config order; one the same as an earlier server's is qualified. */
  templates(): FleetResourceTemplate[] {
    const out: FleetResourceTemplate[] = [];
    const seen = new Set<string>();
    for (const id of this.order) {
      for (const t of this.catalogs.get(id)?.templates ?? []) {
        const clash = seen.has(t.uriTemplate) || isQualified(t.uriTemplate);
        seen.add(t.uriTemplate);
        const uriTemplate = clash ? qualifyTemplate(id, t.uriTemplate) : t.uriTemplate;
        out.push({ ...(t.item as FleetResourceTemplate), uriTemplate });
      }
    }
    return out;
  }
}
