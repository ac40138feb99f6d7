import type { ServerConfig, SupervisorConfig } from '../config/types.js';
import type { SupervisorMachineEvent } from '../machines/supervisor.machine.js';
import type { ControlOutcome, SupervisorEvent } from './types.js';

/** What a server's control is sent through. */
export interface ControlDeps {
  tell: (event: SupervisorMachineEvent) => void;
  servers: ReadonlyMap<string, ServerConfig>;
  now: () => number;
}

/** Where the fleet stands when one server is told to restart, stop or start. */
export interface ControlState {
  stopping: boolean;
  started: boolean;
  config: SupervisorConfig;
}

/** The command: the method's name (for the notice), the server, and the event the actor is sent. */
export interface ControlCommand {
  verb: string;
  id: string;
  type: 'RESTART' | 'STOP' | 'START';
}

/** Sends one server's RESTART, STOP or START, or says with a code why it was not sent. */
export function controlServer(
  parts: ControlDeps,
  at: ControlState,
  emit: (event: SupervisorEvent) => void,
  { verb, id, type }: ControlCommand,
): ControlOutcome {
  // After stop() nothing may start again, and a STOP is moot: the stop in progress owns every server.
  if (at.stopping) return { ok: false, code: 'STOPPED' };
  // Before start() an event would wait in the actor's mailbox and be overridden by start() itself.
  if (!at.started) return { ok: false, code: 'NOT_STARTED' };
  if (typeof id !== 'string' || !parts.servers.has(id)) {
    const known = at.config.servers.map((s) => s.id).join(', ');
    // A fleet notice, not one of a server: an id the config lacks must not appear as a server in logs and pages.
    emit({
      type: 'notice',
      server: null,
      message: `${verb}: unknown server '${String(id)}' (servers: ${known || 'none'})`,
      at: parts.now(),
    });
    return { ok: false, code: 'UNKNOWN_SERVER' };
  }
  parts.tell({ type, id });
  return { ok: true };
}
