import type { SupervisorKey } from '../config/config-diff.js';
import type { ContainerRef } from '../container/container-process.js';
import type { SpawnError } from '../process/preflight.js';
import type { ExitInfo, LinkError } from '../process/server-process.js';
import type { LinkKind } from '../protocol/server-link.js';
import type { LocatedProblem } from '../registry/located-yaml.js';
import type { NameKind } from '../registry/name-claims.js';
import type { LogLevel } from './prompts/log-level.js';
import type { ReloadServerResult } from './reload/reloader.js';
import type { ServerIdentity } from './runtime/identity.js';
import type { ServerState } from './server-state.js';

export type { ServerState };

/** The last exit of a server, as `status()` shows it. */
export interface LastExit {
  code: number | null;
  signal: string | null;
  reason: string;
  stderrTail: string;
  at: number;
  /** Why it could not be started (reason `spawn_failed`): `ENOENT`, `EACCES`, `CWD_MISSING`, … with what was looked at. */
  spawnError?: SpawnError;
  /** Why a `url:` server could not be reached or was lost (`connect_failed`, `disconnected`, `session_lost`). */
  linkError?: LinkError;
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
  /**
   * What holds it and all it starts: its current (or last) process's, else what its next spawn will use;
   * `remote` for a `url:` server, which has no process (and no pid).
   */
  containment?: LinkKind;
  /** The container it runs in (its id, engine and image), while one is there: for a `container:` server. */
  container?: ContainerRef;
  /** What it said of itself in the handshake (serverInfo, capabilities, instructions), while connected. */
  server?: ServerIdentity;
}

/**
 * The answer of `restart`, `startServer` and `stopServer`: `UNKNOWN_SERVER` for an id the config does not have,
 * `NOT_STARTED` before `start()`, `STOPPED` once `stop()` was called (nothing is started again after that).
 */
export type ControlOutcome = { ok: true } | { ok: false; code: 'UNKNOWN_SERVER' | 'NOT_STARTED' | 'STOPPED' };

// Defined beside the names it carries; re-exported here with the other types hosts read.
export type { ExposedTool } from '../registry/exposed-tool.js';

// Defined where it is built; re-exported here with the other types hosts read.
export type { ApprovalRequest } from '../trust/approval-request.js';

/** What a coded `notice` reports: a server's talk hit one of its `limits`. */
export type NoticeCode =
  | 'QUEUE_FULL'
  | 'RATE_LIMITED'
  | 'LISTING_CUT'
  // Tools a listing left out: their definitions nest deeper than MAX_JSON_DEPTH (framing/json-depth.ts).
  | 'TOOL_REFUSED'
  // A large notification or list page arrived cut to its caps (framing/line-summary.ts), or a log message's data
  // nested too deep to pass on (framing/json-depth.ts).
  | 'MESSAGE_CUT'
  // What the next start found of a crashed host's ledger (see reapOrphans).
  | 'REAPED'
  | 'IGNORED_UNPARSABLE'
  // A crashed host's containers could not be looked for: their engine did not answer (see reapContainers).
  | 'ENGINE_UNREACHABLE'
  | 'IGNORED_UNSAFE_PGID'
  | 'NOT_PROVABLY_OURS'
  // A server with `namespace: false` offers a name another server holds: left out (see name-claims.ts).
  | 'NAME_COLLISION'
  // A secret read for a start came from a file that others than its owner may read.
  | 'SECRET_SHARED'
  // A health check (ping, or server/discover) got no answer within health.timeout.
  | 'HEALTH_FAILED'
  // The handshake of a server still running failed (a refused initialize, a broken answer): what it said.
  | 'HANDSHAKE_FAILED';

/** Typed events of `subscribe()`. */
export type SupervisorEvent =
  | {
      type: 'state';
      server: string;
      from: ServerState | null;
      to: ServerState;
      at: number;
      /** On entering `ready`: the protocol version agreed (`2026-07-28` for a 2026-era server). */
      protocolVersion?: string;
    }
  | {
      type: 'exit';
      server: string;
      code: number | null;
      signal: string | null;
      reason: string;
      stderrTail: string;
      at: number;
      spawnError?: SpawnError;
      linkError?: LinkError;
    }
  | { type: 'tools'; server: string; added: string[]; removed: string[]; changed: string[]; at: number }
  | { type: 'refused'; server: string; method: string; at: number }
  | { type: 'untrusted'; server: string; fingerprint: string; at: number }
  /**
   * `code`, when present, says what happened as data (`QUEUE_FULL`, `RATE_LIMITED`, `LISTING_CUT`, …); `message`
   * is for people. A `NAME_COLLISION` also names the `kind`, the `name` (or URI) and the server it is `heldFor`.
   */
  | {
      type: 'notice';
      server: string | null;
      message: string;
      at: number;
      code?: NoticeCode;
      kind?: NameKind;
      name?: string;
      heldFor?: string;
    }
  | { type: 'escalated'; reason: string; at: number }
  /** A server's resources may differ: it became ready, left, or sent `resources/list_changed`. */
  | { type: 'resources'; server: string; at: number }
  /** A server's prompts changed (it became ready, left, or sent `prompts/list_changed`); names are exposed names. */
  | { type: 'prompts'; server: string; added: string[]; removed: string[]; at: number }
  /** A server's `notifications/message`: its level, logger and data as sent. */
  | { type: 'log'; server: string; level: LogLevel; logger?: string; data: unknown; at: number }
  /** One stderr line of a server (cut at 4 KiB, rate-limited); `dropped` lines before it were not passed on. */
  | { type: 'stderr'; server: string; line: string; dropped: number; at: number }
  /** A reload was applied: what it did per server, supervisor keys taken over and those that need a restart. */
  | {
      type: 'reload';
      servers: ReloadServerResult[];
      applied: SupervisorKey[];
      needsRestart: SupervisorKey[];
      at: number;
    }
  /** A reload changed nothing: before start, after stop, or a config with problems (each located). */
  | {
      type: 'reload_refused';
      code: 'NOT_STARTED' | 'STOPPED' | 'INVALID_CONFIG';
      message: string;
      problems: LocatedProblem[];
      at: number;
    };

/** Converts a process exit into the `lastExit` of a status row. */
export function toLastExit(exit: ExitInfo, at: number): LastExit {
  return {
    code: exit.code,
    signal: exit.signal,
    reason: exit.reason,
    stderrTail: exit.stderrTail,
    at,
    ...(exit.spawnError ? { spawnError: exit.spawnError } : {}),
    ...(exit.linkError ? { linkError: exit.linkError } : {}),
  };
}
