import { describeSpawnError, type SpawnError } from './preflight.js';
import type { ExitInfo } from './server-process.js';

/** The exit of a start that failed before anything ran (an engine, an image, a secret): `spawn_failed`, as data. */
export function failedStartExit(spawnError: SpawnError): ExitInfo {
  return {
    code: null,
    signal: null,
    reason: 'spawn_failed',
    requested: false,
    timedOut: false,
    forced: false,
    stderrTail: '',
    error: describeSpawnError(spawnError),
    spawnError,
  };
}
