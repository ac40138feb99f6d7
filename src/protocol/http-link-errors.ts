// A failure of the HTTP layer as data: what a failed fetch, or any thrown value, says for a run's LinkError.

import type { LinkError } from '../process/server-process.js';

/** A fetch failure as data: undici puts the system error (ECONNREFUSED, ENOTFOUND, …) in `cause`. */
export function networkError(err: unknown): Omit<LinkError, 'url'> {
  const cause = (err as { cause?: { code?: unknown; message?: unknown } } | null)?.cause;
  const code = typeof cause?.code === 'string' ? cause.code : undefined;
  const text = typeof cause?.message === 'string' ? cause.message : describe(err);
  return { ...(code !== undefined ? { errno: code } : {}), detail: text };
}

export function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
