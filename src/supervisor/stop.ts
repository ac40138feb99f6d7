import type { SupervisorConfig } from '../config/types.js';
import type { SupervisorActorRef, SupervisorMachineEvent } from '../machines/supervisor.machine.js';
import type { TrustGate } from '../trust/trust-gate.js';
import type { FramePool } from '../workers/frame-pool.js';
import type { FleetTools } from './calls/tool-table.js';
import type { LifecycleSpans } from './observe/lifecycle-spans.js';
import type { FleetPrompts } from './prompts/prompts.js';
import type { FleetResources } from './resources/resources.js';
import type { Connections } from './runtime/connections.js';
import type { ServerWatch } from './runtime/watch.js';
import { DOWN } from './server-state.js';
import { stopInReverse } from './stop-order.js';

/** Everything a stop lets go of. */
export interface StopDeps {
  actor: SupervisorActorRef;
  tell: (event: SupervisorMachineEvent) => void;
  watch: ServerWatch;
  connections: Connections;
  trust: Pick<TrustGate, 'close'>;
  resources: Pick<FleetResources, 'close'>;
  prompts: Pick<FleetPrompts, 'close'>;
  lifecycle: Pick<LifecycleSpans, 'close'>;
  pool: Pick<FramePool, 'close'>;
  tools: Pick<FleetTools, 'close'>;
}

/**
 * Stops a fleet's servers in reverse order, then the actor, every connection and the pool; a fleet never started
 * only lets go of what it holds.
 */
export async function stopFleet(
  parts: StopDeps,
  config: SupervisorConfig,
  started: boolean,
  stdinGraceMs: number | undefined,
  unpersist: (() => void) | undefined,
): Promise<void> {
  const { actor, connections, watch, tell } = parts;
  parts.trust.close();
  parts.resources.close();
  parts.prompts.close();
  // A stopping fleet takes no new call: its tools leave at once, not one rebuild of the table per server.
  parts.tools.close();
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
