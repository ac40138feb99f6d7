import type { ServerResponse } from 'node:http';

// How a response ended. Node emits a response's 'close' once, when its connection is done: a listener added
// after that is never called, and a client can drop its connection while its request is still being routed.

/** Runs `fn` once the response's connection is done: now, when it already is. */
export function whenClosed(res: ServerResponse, fn: () => void): void {
  if (res.closed) fn();
  else res.once('close', fn);
}

/**
 * Whether the response is written whole before its connection closes: true at 'finish' (all of it handed to the
 * system), false at 'close' first (the client went away), or at once when the connection is already done. Call it
 * before writing: a response ended after its connection closed still reports itself finished. It settles when the
 * connection ends at the latest, which `serveHttp`'s close forces.
 */
export function delivered(res: ServerResponse): Promise<boolean> {
  if (res.closed) return Promise.resolve(res.writableFinished);
  return new Promise((resolve) => {
    res.once('finish', () => resolve(true));
    res.once('close', () => resolve(false));
  });
}
