import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  type CreateMessageRequest,
  type ElicitRequest,
  ResultSchema,
  RootsListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { FORWARD_TIMEOUT_MS } from '../protocol/server-requests.js';
import type { ClientHandlers } from '../supervisor/runtime/client-side.js';
import type { Fleet } from './fleet.js';

/**
 * Makes the front client of `serve` the one that answers servers' sampling, elicitation and roots requests —
 * each only if the client declared it in its `initialize`; call once that is known. Which servers may ask at
 * all is their config's (`allow:`, `roots: client`). Results pass through unchanged: the server that asked
 * checks them, and a client's error goes back to it with its code. A person may be answering: the client gets
 * as long as the server's own bound on the request, not the SDK's default minute.
 */
export function answerThroughFrontClient(server: Server, sup: Fleet): void {
  const handlers = frontClientHandlers(server);
  if (handlers.roots)
    server.setNotificationHandler(RootsListChangedNotificationSchema, async () => sup.rootsChanged());
  sup.answerServerRequests(handlers);
}

/**
 * What `server`'s client can answer, as it declared in its `initialize` (call once that is known); each request put
 * to it travels with the client's request `relatedRequestId` when given (over HTTP, on that request's stream).
 */
export function frontClientHandlers(server: Server, relatedRequestId?: string | number): ClientHandlers {
  const caps = server.getClientCapabilities() ?? {};
  const handlers: ClientHandlers = {};
  const related = relatedRequestId !== undefined ? { relatedRequestId } : {};
  if (caps.sampling) {
    handlers.sampling = (r) =>
      server.request(
        { method: 'sampling/createMessage', params: r.params as CreateMessageRequest['params'] },
        ResultSchema,
        { signal: r.signal, timeout: FORWARD_TIMEOUT_MS, ...related },
      );
  }
  if (caps.elicitation) {
    handlers.elicitation = (r) =>
      server.request(
        { method: 'elicitation/create', params: r.params as ElicitRequest['params'] },
        ResultSchema,
        { signal: r.signal, timeout: FORWARD_TIMEOUT_MS, ...related },
      );
  }
  if (caps.roots) handlers.roots = async () => (await server.listRoots(undefined, related)).roots;
  return handlers;
}
