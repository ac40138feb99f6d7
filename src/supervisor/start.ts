import type { SupervisorConfig } from '../config/types.js';
import {
  type ContainerFinding,
  persistContainerLedger,
  reapContainers,
} from '../container/container-ledger.js';
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
    const unpersist = persistLedger(dir, owner);
    const unpersistContainers = persistContainerLedger(dir, owner);
    let done = false;
    // Beside the start, not before it: only dead hosts' containers (other instance labels) are removed, so ours
    // and theirs never meet, and an engine that is slow to answer holds up no process server.
    void reapContainers(dir).then((findings) => {
      if (done) return;
      for (const found of findings) emit({ type: 'notice', ...containerNotice(found), at: Date.now() });
    });
    return () => {
      done = true;
      unpersistContainers();
      unpersist();
    };
  } catch (err) {
    warn(`state directory ${dir} unusable: ${(err as Error).message}`);
    return undefined;
  }
}

function containerNotice(found: ContainerFinding): {
  server: string | null;
  code: 'REAPED' | 'IGNORED_UNPARSABLE' | 'ENGINE_UNREACHABLE';
  message: string;
} {
  const message =
    found.code === 'REAPED'
      ? `removed a container a crashed host left: ${found.detail}`
      : found.code === 'ENGINE_UNREACHABLE'
        ? `could not reach the engine of a crashed host's containers: ${found.detail}`
        : `left a crashed host's container ledger alone: ${found.detail}`;
  return { server: found.server, code: found.code, message };
}
