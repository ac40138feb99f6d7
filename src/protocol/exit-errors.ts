import type { ExitInfo } from '../process/server-process.js';
import { SupervisorError } from './errors.js';

/** Describes an exit as the error every affected call resolves with. */
export function exitError(exit: ExitInfo, when: string): SupervisorError {
  if (exit.linkError) return linkExitError(exit, when);
  if (exit.reason === 'spawn_failed') {
    return new SupervisorError(
      'SPAWN_FAILED',
      `server could not be spawned: ${exit.error ?? 'unknown error'}`,
    );
  }
  const how = exit.signal ? `signal ${exit.signal}` : `code ${exit.code}`;
  if (exit.reason === 'oom') {
    return new SupervisorError(
      'SERVER_EXITED',
      `server ran out of memory (${how}, over its memory limit) ${when}`,
    );
  }
  const tail = exit.stderrTail ? `; stderr: ${lastLine(exit.stderrTail)}` : '';
  return new SupervisorError('SERVER_EXITED', `server exited (${how}) ${when}${tail}`);
}

/** A remote server's end: it could not be reached (CONNECT_FAILED) or was lost (SERVER_DISCONNECTED). */
function linkExitError(exit: ExitInfo, when: string): SupervisorError {
  const e = exit.linkError!;
  if (exit.reason === 'connect_failed') {
    return new SupervisorError('CONNECT_FAILED', `could not connect to ${e.url} ${when}: ${e.detail}`);
  }
  const what = exit.reason === 'session_lost' ? 'lost our session' : 'disconnected';
  return new SupervisorError('SERVER_DISCONNECTED', `server ${what} ${when}: ${e.detail}`);
}

function lastLine(text: string): string {
  const i = text.lastIndexOf('\n');
  return (i < 0 ? text : text.slice(i + 1)).slice(0, 200);
}
