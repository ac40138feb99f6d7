import type { ServerConfig } from '../config/types.js';
import type { ContainerRef } from '../container/container-process.js';
import type { SupervisorActorRef } from '../machines/supervisor.machine.js';
import type { ContainmentKind } from '../process/containment.js';
import type { McpConnection } from '../protocol/connection.js';
import type { LinkKind } from '../protocol/server-link.js';
import type { FleetTools } from './calls/tool-table.js';
import type { Connections } from './runtime/connections.js';
import { containerRef } from './runtime/container-launch.js';
import { identityRow } from './runtime/identity.js';
import type { ServerWatch } from './runtime/watch.js';
import type { ServerStatus } from './types.js';

/** What a status row is read from. */
export interface StatusDeps {
  actor: SupervisorActorRef;
  watch: ServerWatch;
  tools: FleetTools;
  connections: Connections;
  containment: ContainmentKind;
}

/** One row per configured server; restarts are read from the actor once it runs. */
export function statusRows(
  parts: StatusDeps,
  servers: readonly ServerConfig[],
  started: boolean,
): ServerStatus[] {
  const books = started ? parts.actor.getSnapshot().context.books : undefined;
  const restarts = new Map(books?.children.map((c) => [c.id, c.restarts]));
  return servers.map((s) => ({
    ...parts.watch.row(s.id, restarts.get(s.id) ?? 0, parts.tools),
    containment: parts.connections.get(s.id)?.link.kind ?? configuredKind(s, parts.containment),
    ...containerRow(parts.connections.get(s.id)),
    ...identityRow(parts.connections.get(s.id)),
  }));
}

function configuredKind(s: ServerConfig, containment: ContainmentKind): LinkKind {
  if (s.remote) return 'remote';
  return s.container ? 'container' : containment;
}

function containerRow(conn: McpConnection | undefined): { container?: ContainerRef } {
  const ref = containerRef(conn);
  return ref ? { container: ref } : {};
}
