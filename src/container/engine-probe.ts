// Two questions asked of an engine before anything starts: does it answer (`GET /_ping`), and does it hold the
// image (`GET /images/{name}/json`)? Each bounded, so an engine that accepts and never answers costs a known wait.
import type Docker from 'dockerode';
import { engineClient } from './engine-client.js';

/** What the engine said: the image's id, or which question failed and why, in a few words. */
export type EngineProbe =
  | { ok: true; imageId: string }
  | { ok: false; code: 'ENGINE_UNREACHABLE' | 'IMAGE_MISSING'; detail: string };

/** The bound `check` gives each probe. */
export const PROBE_TIMEOUT_MS = 3000;

/** Asks the engine at `address` whether it answers and holds `image`, within `timeoutMs` in all. */
export async function probeEngine(address: string, image: string, timeoutMs: number): Promise<EngineProbe> {
  const end = Date.now() + timeoutMs;
  let docker: Docker;
  try {
    docker = engineClient(address, timeoutMs);
  } catch (err) {
    return { ok: false, code: 'ENGINE_UNREACHABLE', detail: (err as Error).message };
  }
  try {
    await within(docker.ping(), end, timeoutMs);
  } catch (err) {
    return { ok: false, code: 'ENGINE_UNREACHABLE', detail: failure(err, '/_ping') };
  }
  try {
    const info = await within(docker.getImage(image).inspect(), end, timeoutMs);
    return { ok: true, imageId: info.Id };
  } catch (err) {
    if (statusOf(err) === 404) return { ok: false, code: 'IMAGE_MISSING', detail: 'no such image' };
    return { ok: false, code: 'ENGINE_UNREACHABLE', detail: failure(err, 'the image query') };
  }
}

class Timeout extends Error {}

/** `work`, or a Timeout at `end`; the client's own timeout ends the request itself soon after. */
async function within<T>(work: Promise<T>, end: number, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Timeout(`no answer within ${timeoutMs} ms`)),
      Math.max(0, end - Date.now()),
    );
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
    // A request that lost the race still settles (the client's timeout destroys it); its rejection is no news.
    work.catch(() => {});
  }
}

function statusOf(err: unknown): number | undefined {
  const status = (err as { statusCode?: unknown }).statusCode;
  return typeof status === 'number' ? status : undefined;
}

const CAUSES: Record<string, string> = {
  ENOENT: 'no socket there',
  ECONNREFUSED: 'connection refused',
  EACCES: 'permission denied on the socket',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host not found',
  ECONNRESET: 'connection reset',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
};

/** Why a request failed, in a few words: the system's cause, the bound, or the HTTP status it got. */
function failure(err: unknown, asked: string): string {
  if (err instanceof Timeout) return err.message;
  const status = statusOf(err);
  if (status !== undefined) return `it answered HTTP ${status} to ${asked}`;
  const code = (err as NodeJS.ErrnoException).code;
  if (typeof code === 'string') return CAUSES[code] ? `${CAUSES[code]} (${code})` : code;
  // The client's own timeout ends a request with no code of its own.
  return err instanceof Error && err.message !== '' ? err.message : String(err);
}
