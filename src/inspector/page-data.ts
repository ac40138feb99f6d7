import { describeSpawnError } from '../process/preflight.js';
import type { LastExit, ServerStatus, SupervisorEvent } from '../supervisor/types.js';

/** A last exit as the page gets it: `why` is the one-line reading of a failed spawn. */
export type PageExit = LastExit & { why?: string };

/** A status row as the page gets it. */
export type PageRow = Omit<ServerStatus, 'lastExit'> & { lastExit?: PageExit };

/** An event as the page gets it (`why` on the exit of a failed spawn). */
export type PageEvent = SupervisorEvent & { why?: string };

/** Whether the fleet runs, as the host tells the inspector. */
export type FleetPhase = 'running' | 'stopping' | 'stopped';

/** The body of `/api/status` and of every `status` frame of the stream. */
export interface PageStatus {
  servers: PageRow[];
  /** The server's clock, so the page can show durations without trusting the browser's. */
  now: number;
  /** Absent when the host does not say. */
  fleet?: FleetPhase;
}

/**
 * What the page is sent: the rows and events as they are, plus `why`, the one-line reading of a failed spawn. The
 * page is plain script without the renderer, so the words are made here, once, as everywhere else in the CLI.
 */
export function pageRows(rows: readonly ServerStatus[]): PageRow[] {
  return rows.map((row) =>
    row.lastExit?.spawnError
      ? { ...row, lastExit: { ...row.lastExit, why: describeSpawnError(row.lastExit.spawnError) } }
      : row,
  );
}

/** One event for the page (see {@link pageRows}). */
export function pageEvent(event: SupervisorEvent): PageEvent {
  return event.type === 'exit' && event.spawnError
    ? { ...event, why: describeSpawnError(event.spawnError) }
    : event;
}

/** The body of a status: the rows for the page and the server's clock. */
export function pageStatus(rows: readonly ServerStatus[], fleet?: FleetPhase): PageStatus {
  return { servers: pageRows(rows), now: Date.now(), ...(fleet ? { fleet } : {}) };
}
