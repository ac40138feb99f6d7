import type { InputRequired } from '../../framing/result-type.js';
import type { InputRetry } from '../../protocol/call-options.js';
import type { InputRoutes } from './routes.js';

/**
 * Why a gateway client's retry may not be sent: its `requestState` was handed out by another server than the one
 * its name or URI routes to now (a reload moved it, a name held for another). `undefined` when it may be sent, or
 * the state is not one this supervisor handed out (the server itself must verify its state).
 */
export function routeChanged(
  routes: InputRoutes,
  retry: InputRetry | undefined,
  server: string,
  what: string,
): string | undefined {
  const state = retry?.requestState;
  const asker = state === undefined ? undefined : routes.serverOf(state);
  if (asker === undefined || asker === server) return undefined;
  return `${what} now belongs to server '${server}', not '${asker}' that asked for input: ask for it afresh`;
}

/** Remembers which server handed out an `input_required` passed back to a gateway's client as it came. */
export function rememberHanded(routes: InputRoutes, input: InputRequired | undefined, server: string): void {
  if (input?.requestState !== undefined) routes.remember(input.requestState, server);
}
