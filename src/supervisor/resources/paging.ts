import { isRecord } from '../../framing/is-record.js';
import type { McpConnection } from '../../protocol/connection.js';
import type { ResourceCatalogs } from './catalogs.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import {
  type FleetResource,
  type ResourceListOutcome,
  resourceFailure,
  resourceFailureFromError,
} from './outcome.js';

/** What a walk of the fleet's resource lists asks of the fleet. */
export interface PagingHost {
  connection: (id: string) => McpConnection | undefined;
  warn: (message: string) => void;
}

/**
 * One page of the fleet's resources: one server's page at a time in config order, under a cursor naming the
 * server and its own cursor; a server with an empty last page is passed over to the next.
 */
export async function listResourcePage(
  catalogs: ResourceCatalogs,
  host: PagingHost,
  cursor?: string,
): Promise<ResourceListOutcome> {
  await catalogs.settled();
  const { routes } = catalogs;
  if (catalogs.servers.length === 0) return { ok: true, resources: [] };
  let at: { s: string; c?: string } | undefined =
    cursor === undefined ? { s: catalogs.servers[0]! } : decodeCursor(cursor);
  if (!at || !catalogs.configured(at.s))
    return resourceFailure('INVALID_CURSOR', `unknown cursor ${JSON.stringify(cursor)}`);
  for (let i = catalogs.servers.indexOf(at.s); i < catalogs.servers.length; i++) {
    const id = catalogs.servers[i]!;
    const nextServer = catalogs.servers.slice(i + 1).find((s) => routes.has(s));
    const after = nextServer === undefined ? undefined : encodeCursor({ s: nextServer });
    const conn = host.connection(id);
    const serverCursor = id === at.s ? at.c : undefined;
    if (!routes.has(id) || !conn) continue;
    let raw: unknown;
    try {
      const params = serverCursor === undefined ? {} : { cursor: serverCursor };
      raw = await conn.request('resources/list', params, { timeoutMs: catalogs.timeoutOf(id) });
    } catch (err) {
      // One server failing to list leaves the others listable; its resources are absent from this walk.
      host.warn(`resources/list of '${id}' failed: ${resourceFailureFromError(err, {}).message}`);
      continue;
    }
    if (!isRecord(raw) || !Array.isArray(raw.resources)) continue;
    const resources = raw.resources
      .filter((r): r is FleetResource => isRecord(r) && typeof r.uri === 'string')
      // A `namespace: false` server's URI that routes to another server is held back, never renamed.
      .filter((r) => routes.heldFor(id, r.uri) === undefined)
      .map((r) => ({ ...r, uri: routes.expose(id, r.uri) }));
    const next = typeof raw.nextCursor === 'string' ? encodeCursor({ s: id, c: raw.nextCursor }) : after;
    if (resources.length === 0 && next === after && after !== undefined) {
      at = { s: catalogs.servers[i + 1]! };
      continue;
    }
    return { ok: true, resources, ...(next !== undefined ? { nextCursor: next } : {}) };
  }
  return { ok: true, resources: [] };
}
