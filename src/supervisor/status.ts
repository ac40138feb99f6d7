import type { ServerConfig } from '../config/types.js';
import type { FleetParts } from './parts.js';
import { identityRow } from './runtime/identity.js';
import type { ServerStatus } from './types.js';

/** One row per configured server; restarts are read from the actor once it runs. */
export function statusRows(
  parts: Pick<FleetParts, 'actor' | 'watch' | 'tools' | 'connections' | 'containment'>,
  servers: readonly ServerConfig[],
  started: boolean,
): ServerStatus[] {
  const ctx = started ? parts.actor.getSnapshot().context : undefined;
  return servers.map((s) => ({
    ...parts.watch.row(s.id, ctx?.books.children[s.id]?.restarts ?? 0, parts.tools),
    containment: parts.connections.get(s.id)?.link.kind ?? (s.remote ? 'remote' : parts.containment),
    ...identityRow(parts.connections.get(s.id)),
  }));
}
