import { describeSpawnError, type SpawnError } from '../process/preflight.js';

/**
 * Why the engine could not do what a start needed, as data:
 * - `ENGINE_UNREACHABLE`: nothing answers at the address (no socket, refused, reset, no such host);
 * - `ENGINE_TIMEOUT`: it did not answer within the bound;
 * - `IMAGE_MISSING`: the image is not on the engine (and `pull` did not bring it);
 * - `PULL_FAILED`: a pull was asked for and failed;
 * - `ENGINE_ERROR`: it answered with an error (an unknown network, a bad mount, a user it cannot find, …).
 */
export type EngineErrorCode =
  | 'ENGINE_UNREACHABLE'
  | 'ENGINE_TIMEOUT'
  | 'IMAGE_MISSING'
  | 'PULL_FAILED'
  | 'ENGINE_ERROR';

export interface EngineFailure {
  code: EngineErrorCode;
  engine: string;
  image?: string;
  /** The HTTP status the engine answered with, when it answered. */
  status?: number;
  /** The engine's or the system's own words. */
  detail: string;
}

const UNREACHABLE = new Set([
  'ENOENT',
  'ECONNREFUSED',
  'ECONNRESET',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EACCES',
  'EPIPE',
]);

/** Reads what dockerode or a socket threw as an engine failure. */
export function engineFailure(err: unknown, engine: string, image?: string): EngineFailure {
  const e = (err ?? {}) as { code?: unknown; statusCode?: unknown; message?: unknown; json?: unknown };
  const code = typeof e.code === 'string' ? e.code : undefined;
  const status = typeof e.statusCode === 'number' ? e.statusCode : undefined;
  const detail = engineWords(e.json) ?? (typeof e.message === 'string' ? e.message : String(err));
  const base = image !== undefined ? { engine, image } : { engine };
  if (code !== undefined && UNREACHABLE.has(code))
    return { code: 'ENGINE_UNREACHABLE', ...base, detail: code };
  if (code === 'ETIMEDOUT' || code === 'ENGINE_TIMEOUT' || /timeout/i.test(detail))
    return { code: 'ENGINE_TIMEOUT', ...base, detail };
  return { code: 'ENGINE_ERROR', ...base, ...(status !== undefined ? { status } : {}), detail };
}

function engineWords(json: unknown): string | undefined {
  if (json && typeof json === 'object') {
    const m = (json as { message?: unknown; cause?: unknown }).message;
    if (typeof m === 'string') return m;
  }
  return typeof json === 'string' && json !== '' ? json.trim() : undefined;
}

/** For people: one line naming the engine (and the image); rendered where every spawn failure is. */
export function describeEngineFailure(f: EngineFailure): string {
  return describeSpawnError(failedStart(f, { image: f.image ?? '' }).spawnError);
}

/** An engine failure as the fields of a `spawn_failed` exit: text for people, and the data it was rendered from. */
export function failedStart(
  f: EngineFailure,
  where: { image: string; workdir?: string | undefined },
): { error: string; spawnError: SpawnError } {
  const spawnError = {
    code: f.code,
    command: where.image,
    cwd: where.workdir ?? '',
    detail: f.detail,
    engine: f.engine,
  };
  return { error: describeSpawnError(spawnError), spawnError };
}
