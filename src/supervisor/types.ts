import type { ExitInfo } from './server-process.js';

/** Every state a server can be in, as `status()` reports it. */
export type ServerState =
  | 'spawning'
  | 'handshaking'
  | 'ready'
  | 'wedged'
  | 'stopping'
  | 'backoff'
  | 'failed'
  | 'stopped'
  | 'untrusted';

/** The last exit of a server, as `status()` shows it. */
export interface LastExit {
  code: number | null;
  signal: string | null;
  reason: string;
  stderrTail: string;
  at: number;
}

/** One row of `status()`. */
export interface ServerStatus {
  id: string;
  state: ServerState;
  pid?: number;
  restarts: number;
  /** ms since the epoch at which the server entered `state`. */
  since: number;
  lastExit?: LastExit;
  /** How many tools it exposes now. */
  tools: number;
}

/**
 * The answer of `restart`, `startServer` and `stopServer`: `UNKNOWN_SERVER` for an id the config does not have,
 * `STOPPED` once `stop()` was called (nothing is started again after that).
 */
export type ControlOutcome = { ok: true } | { ok: false; code: 'UNKNOWN_SERVER' | 'STOPPED' };

/** A tool as the fleet exposes it, under its namespaced name. */
export interface ExposedTool {
  name: string;
  server: string;
  tool: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  scopesRequired: string[];
}

/** What `approve` is asked; the trust issue fills in `changes` and masks secrets. */
export interface ApprovalRequest {
  kind: 'server' | 'tools';
  server: string;
  fingerprint: string;
  command: string;
  /** What `command` resolves to on disk (symlinks followed), null when it could not be found. */
  executable: string | null;
  args: string[];
  cwd: string;
  /** Env names with values masked where they look secret. */
  env: Record<string, string>;
  changes: string[];
  tools?: string[];
}

/** Typed events of `subscribe()`. */
export type SupervisorEvent =
  | { type: 'state'; server: string; from: ServerState | null; to: ServerState; at: number }
  | {
      type: 'exit';
      server: string;
      code: number | null;
      signal: string | null;
      reason: string;
      stderrTail: string;
      at: number;
    }
  | { type: 'tools'; server: string; added: string[]; removed: string[]; changed: string[]; at: number }
  | { type: 'refused'; server: string; method: string; at: number }
  | { type: 'untrusted'; server: string; fingerprint: string; at: number }
  | { type: 'notice'; server: string | null; message: string; at: number }
  | { type: 'escalated'; reason: string; at: number };

/** Converts a process exit into the `lastExit` of a status row. */
export function toLastExit(exit: ExitInfo, at: number): LastExit {
  return { code: exit.code, signal: exit.signal, reason: exit.reason, stderrTail: exit.stderrTail, at };
}
