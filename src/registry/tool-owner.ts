import { exposedName, exposedNameOwner } from './exposed-name.js';

/** What {@link toolOwner} reads of a config: the separator, and each server's id and declared tools. */
export interface OwnerConfig {
  supervisor: { separator: string };
  servers: readonly { id: string; tools: readonly { name: string }[] }[];
}

/**
 * The server that can own an exposed tool name, worked out from the config alone (nothing is started): a
 * declared tool exposed under exactly this name, else {@link exposedNameOwner} (a plain name's server id before
 * its first separator; for a hashed name, the longest server id that begins it). Undefined when no server can.
 * The running fleet asks the same after its live table (`FleetTools.serverFor`), so both always agree.
 */
export function toolOwner(config: OwnerConfig, name: string): string | undefined {
  const sep = config.supervisor.separator;
  for (const server of config.servers) {
    for (const tool of server.tools) if (declaredName(server.id, tool.name, sep) === name) return server.id;
  }
  return exposedNameOwner(
    name,
    config.servers.map((s) => s.id),
    sep,
  );
}

function declaredName(serverId: string, tool: string, separator: string): string | undefined {
  try {
    return exposedName(serverId, tool, separator);
  } catch {
    return undefined;
  }
}
