import type { SupervisorConfig } from '../config/types.js';
import { exposedName } from './exposed-name.js';

/**
 * The server that can own a namespaced tool name, worked out from the config alone (nothing is started): a
 * declared tool exposed under exactly this name, else the longest server id that prefixes the name followed by
 * the separator (or by the separator made LLM-safe, as hashed names spell it). Undefined when no server can.
 */
export function toolOwner(config: SupervisorConfig, name: string): string | undefined {
  const sep = config.supervisor.separator;
  for (const server of config.servers) {
    for (const tool of server.tools) if (declaredName(server.id, tool.name, sep) === name) return server.id;
  }
  const safeSep = sep.replace(/[^A-Za-z0-9_-]/g, '_');
  let best: string | undefined;
  for (const { id } of config.servers) {
    const prefixed = name.startsWith(id + sep) || name.startsWith(id + safeSep);
    if (prefixed && (best === undefined || id.length > best.length)) best = id;
  }
  return best;
}

function declaredName(serverId: string, tool: string, separator: string): string | undefined {
  try {
    return exposedName(serverId, tool, separator);
  } catch {
    return undefined;
  }
}
