import type { ServerConfig } from '../../config/types.js';
import { ContainerProcess, type ContainerRef } from '../../container/container-process.js';
import { failedStart } from '../../container/engine-errors.js';
import { resolveImage } from '../../container/image.js';
import { failedStartExit } from '../../process/failed-start.js';
import type { ExitInfo } from '../../process/server-process.js';
import type { McpConnection } from '../../protocol/connection.js';
import { StdioLink } from '../../protocol/stdio-link.js';

/**
 * A container server's launch with its image read once, as an id: the trust gate fingerprints that id and the
 * container is created from it, so a tag moved in between is never what runs. A failure is the start's exit.
 */
export async function pinImage(
  server: ServerConfig,
): Promise<{ ok: true; server: ServerConfig } | { ok: false; exit: ExitInfo }> {
  const settings = server.container;
  if (!settings) return { ok: true, server };
  const found = await resolveImage(settings, server.timeouts.startupMs);
  if (found.ok)
    return { ok: true, server: { ...server, container: { ...settings, imageId: found.imageId } } };
  const exit = failedStartExit(failedStart(found.failure, settings).spawnError);
  return { ok: false, exit };
}

/** The container behind a connection, when it runs in one. */
export function containerOf(conn: McpConnection | undefined): ContainerProcess | undefined {
  const link = conn?.link;
  return link instanceof StdioLink && link.process instanceof ContainerProcess ? link.process : undefined;
}

/** The container a connection's server runs in, once created. */
export function containerRef(conn: McpConnection | undefined): ContainerRef | undefined {
  return containerOf(conn)?.containerRef;
}
