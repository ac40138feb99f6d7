import type { SurfaceFailure } from '../../protocol/surface-outcome.js';

/** The syslog levels of MCP logging, least severe first. */
export const LOG_LEVELS = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
] as const;

export type LogLevel = (typeof LOG_LEVELS)[number];

export function isLogLevel(v: unknown): v is LogLevel {
  return typeof v === 'string' && (LOG_LEVELS as readonly string[]).includes(v);
}

/**
 * What `setLogLevel()` resolves to: the servers that took the level and those that failed (each with its code).
 * Only a malformed level fails the whole call.
 */
export type SetLevelOutcome =
  | { ok: true; servers: string[]; failed: SurfaceFailure[] }
  | { ok: false; code: 'INVALID_CALL'; message: string };
