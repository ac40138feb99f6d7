import type { SupervisorConfig } from '../config/types.js';
import { DOWN, type FleetParts } from './parts.js';
import { stopInReverse } from './stop-order.js';

/**
 * Stops a fleet's servers in reverse order, then the actor, every connection and the pool; a fleet never started
 * only lets go of what it holds.
 */
export async function stopFleet(
  parts: FleetParts,
  config: SupervisorConfig,
  started: boolean,
  stdinGraceMs: number | undefined,
  unpersist: (() => void) | undefined,
): Promise<void> {
  const { actor, connections, watch, tell } = parts;
  parts.trust.close();
  parts.resources.close();
  parts.prompts.close();
  if (started) {
    await stopInReverse(config.supervisor.strategy, config.servers, (server) => {
      tell({ type: 'STOP', id: server.id });
      // Bounded: whatever the machine does meanwhile, the actor's stop below takes every process with it.
      const bound = server.timeouts.shutdownMs + (stdinGraceMs ?? 1000) + 2000;
      return watch.until(server.id, (state) => DOWN.has(state) || state === 'backoff', bound);
    });
    tell({ type: 'STOP_ALL' });
    await connections.closeAll('stopped');
    actor.stop();
    // A process actor that was still starting spawns nothing after the actor stopped; wait for any it did spawn.
    await connections.closeAll('stopped');
    watch.detach();
  }
  unpersist?.();
  parts.lifecycle.close();
  await parts.pool.close();
}
