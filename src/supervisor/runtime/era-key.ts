import type { ServerConfig } from '../../config/types.js';

/**
 * What must be the same for a server's era to be taken as known: the same id started the same way. A changed
 * command, argument, directory or environment may be another server, so it is probed again.
 */
export function eraKey(server: ServerConfig): string {
  return JSON.stringify([
    server.id,
    server.command,
    server.args,
    server.cwd,
    server.env,
    server.inheritEnv,
    server.remote?.url ?? null,
  ]);
}
