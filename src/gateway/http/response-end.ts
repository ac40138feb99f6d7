import type { ServerResponse } from 'node:http';

// How a response ended. Node emits a response's 'close' once, when its connection is done: a listener added
// after that is never called, and a client can drop its connection while its request is still being routed.

/** Runs `fn` once the response's connection is done: now, when it already is. */
export function whenClosed(res: ServerResponse, fn: () => void): void {
  if (res.closed) fn();
  else res.once('close', fn);
}
