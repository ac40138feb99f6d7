import { isRecord } from '../framing/is-record.js';
import { MAX_JSON_DEPTH, nestedDeeperThan } from '../framing/json-depth.js';
import type { ConnectionEvent } from './connection-types.js';

/**
 * What one notification from a server asks of its connection: restart a request's timeout (`progress`), stop
 * answering one of the server's own requests (`cancelled`), tell the owner (`event`), or nothing.
 */
export type NotificationRoute =
  | { kind: 'progress'; params: unknown }
  | { kind: 'cancelled'; requestId: unknown }
  | { kind: 'event'; event: ConnectionEvent }
  | undefined;

/** The list changes a server announces only once it has been initialized; before that they mean nothing yet. */
const LIST_CHANGES: ReadonlyMap<string, 'tools_changed' | 'resources_changed' | 'prompts_changed'> = new Map([
  ['notifications/tools/list_changed', 'tools_changed'],
  ['notifications/resources/list_changed', 'resources_changed'],
  ['notifications/prompts/list_changed', 'prompts_changed'],
]);

/** Where a notification goes; unknown methods and params of the wrong shape go nowhere. */
export function routeNotification(
  method: string,
  params: unknown,
  handshakeDone: boolean,
): NotificationRoute {
  // Params nested past what anything can write out would throw in whoever takes them next (json-depth.ts); a log
  // message's are passed on without its data instead (prompts.ts).
  if (method !== 'notifications/message' && nestedDeeperThan(params, MAX_JSON_DEPTH)) return undefined;
  switch (method) {
    case 'notifications/cancelled':
      return { kind: 'cancelled', requestId: isRecord(params) ? params.requestId : undefined };
    case 'notifications/progress':
      return { kind: 'progress', params };
    case 'notifications/resources/updated': {
      const uri = isRecord(params) ? params.uri : undefined;
      return handshakeDone && typeof uri === 'string'
        ? { kind: 'event', event: { type: 'resource_updated', uri } }
        : undefined;
    }
    case 'notifications/subscriptions/acknowledged':
      return handshakeDone && isRecord(params)
        ? { kind: 'event', event: { type: 'listen_acknowledged', params } }
        : undefined;
    case 'notifications/tasks/status':
      return isRecord(params) ? { kind: 'event', event: { type: 'task_status', params } } : undefined;
    case 'notifications/message':
      return isRecord(params) ? { kind: 'event', event: { type: 'log', params } } : undefined;
  }
  const change = LIST_CHANGES.get(method);
  return change && handshakeDone ? { kind: 'event', event: { type: change } } : undefined;
}
