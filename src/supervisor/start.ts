import type { SupervisorConfig } from '../config/types.js';
import type { SupervisorActorRef, SupervisorMachineEvent } from '../machines/supervisor.machine.js';
import { persistLedger, reapOrphans } from '../process/state-dir.js';
import type { SupervisorOptions } from './options.js';
import type { ServerWatch } from './runtime/watch.js';
import type { SupervisorEvent } from './types.js';

/** What starting the fleet runs on: its actor, what watches its states, and the instance's owner tag. */
export interface StartDeps {
  actor: SupervisorActorRef;
  tell: (event: SupervisorMachineEvent) => void;
  watch: ServerWatch;
  owner: string;
}

const SETTLED = new Set(['ready', 'failed', 'untrusted', 'stopped']);

/**
 * Runs the fleet's actor, once: the state directory (if any) is adopted first. Returns the ledger's removal, or
 * undefined when there is no ledger.
 */
export function runFleet(
  parts: Omit<StartDeps, 'tell'>,
  options: Pick<SupervisorOptions, 'stateDir' | 'logger'>,
  emit: (event: SupervisorEvent) => void,
): (() => void) | undefined {
  const warn = (message: string) => options.logger?.warn?.(message);
  const unpersist = options.stateDir ? adoptStateDir(options.stateDir, parts.owner, emit, warn) : undefined;
  parts.actor.start();
  parts.watch.attach();
  return unpersist;
}

/** Starts every server and resolves once each enabled one is ready, failed, untrusted or stopped. */
export async function settleFleet(
  parts: Pick<StartDeps, 'tell' | 'watch'>,
  config: SupervisorConfig,
): Promise<void> {
  parts.tell({ type: 'START_ALL' });
  const enabled = config.servers.filter((s) => !s.disabled).map((s) => s.id);
  await Promise.all(enabled.map((id) => parts.watch.until(id, (state) => SETTLED.has(state))));
}

/**
 * Reaps what a crashed host left in the state directory and starts this instance's ledger there; returns the
 * ledger's removal, or undefined when the directory is unusable (told as a warning, never thrown).
 */
function adoptStateDir(
  dir: string,
  owner: string,
  emit: (event: SupervisorEvent) => void,
  warn: (message: string) => void,
): (() => void) | undefined {
  try {
    for (const found of reapOrphans(dir)) {
      const message =
        found.code === 'REAPED'
          ? `reaped what a crashed host left running: ${found.detail}`
          : `left a crashed host's ledger entry alone: ${found.detail}`;
      emit({ type: 'notice', server: found.server, code: found.code, message, at: Date.now() });
    }
    return persistLedger(dir, owner);
  } catch (err) {
    warn(`state directory ${dir} unusable: ${(err as Error).message}`);
    return undefined;
  }
}
