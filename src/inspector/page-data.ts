import { describeSpawnError } from '../process/preflight.js';
import type { ServerStatus, SupervisorEvent } from '../supervisor/types.js';

/**
 * What the page is sent: the rows and events as they are, plus `why`, the one-line reading of a failed spawn. The
 * page is plain script without the renderer, so the words are made here, once, as everywhere else in the CLI.
 */
export function pageRows(rows: readonly ServerStatus[]): unknown[] {
  return rows.map((row) =>
    row.lastExit?.spawnError
      ? { ...row, lastExit: { ...row.lastExit, why: describeSpawnError(row.lastExit.spawnError) } }
      : row,
  );
}

/** One event for the page (see {@link pageRows}). */
export function pageEvent(event: SupervisorEvent): unknown {
  return event.type === 'exit' && event.spawnError
    ? { ...event, why: describeSpawnError(event.spawnError) }
    : event;
}
