import { exposedNameFor, exposedNameOwner } from './exposed-name.js';

/** What {@link toolOwner} reads of a config: the separator, and each server's id, naming and declared tools. */
export interface OwnerConfig {
  supervisor: { separator: string };
  servers: readonly { id: string; namespace?: false; tools: readonly { name: string }[] }[];
}

/**
 * The server that can own an exposed tool name, worked out from the config alone (nothing is started): a
 * declared tool exposed under exactly this name (the first in config order, as a collision is settled), else
 * {@link exposedNameOwner} over the namespaced servers (a plain name's server id before its first separator; for
 * a hashed name, the longest server id that begins it), else the first server with `namespace: false`, whose
 * names can be anything. Undefined when no server can. The running fleet asks the same after its live table
 * (`FleetTools.serverFor`), so both always agree.
 */
export function toolOwner(config: OwnerConfig, name: string): string | undefined {
  const sep = config.supervisor.separator;
  for (const server of config.servers) {
    for (const tool of server.tools) if (declaredName(server, tool.name, sep) === name) return server.id;
  }
  const namespaced = config.servers.filter((s) => s.namespace !== false).map((s) => s.id);
  return exposedNameOwner(name, namespaced, sep) ?? config.servers.find((s) => s.namespace === false)?.id;
}

function declaredName(server: { id: string; namespace?: false }, tool: string, separator: string) {
  try {
    return exposedNameFor(server.id, tool, separator, server.namespace !== false);
  } catch {
    return undefined;
  }
}
