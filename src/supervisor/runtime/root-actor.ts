import { createActor } from 'xstate';
import type { SupervisorConfig } from '../../config/types.js';
import { serverMachine } from '../../machines/server.machine.js';
import { type SupervisorActorRef, supervisorMachine } from '../../machines/supervisor.machine.js';
import { EraCache } from '../../protocol/era.js';
import type { SupervisorOptions } from '../options.js';
import { handshakeActor, pingerActor, type RuntimeDeps, vetToolsActor } from './actors.js';
import { processActor } from './process-actor.js';

/**
 * The root actor of a fleet: the pure supervisor machine, each server's machine given the actors that do the IO
 * (`deps`: processes, connections, the trust gate), on the host's clock and inspector if it passed them.
 */
export function createFleetActor(
  config: SupervisorConfig,
  options: Pick<SupervisorOptions, 'clock' | 'inspect'>,
  deps: RuntimeDeps,
): SupervisorActorRef {
  // Kept for the supervisor's life: a restart of a server already heard speaking goes straight to its era.
  const eras = new EraCache();
  const machine = supervisorMachine.provide({
    actors: {
      server: serverMachine.provide({
        actors: {
          process: processActor(deps, eras),
          handshake: handshakeActor(deps, eras),
          vetTools: vetToolsActor(deps),
          pinger: pingerActor(deps, options.clock),
        },
      }),
    },
  });
  return createActor(machine, {
    input: {
      strategy: config.supervisor.strategy,
      limit: config.supervisor.limit,
      servers: config.servers,
    },
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.inspect ? { inspect: options.inspect } : {}),
  });
}
