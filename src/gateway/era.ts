import type { ClientCapabilities, Implementation, JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import {
  CLIENT_CAPABILITIES_META,
  CLIENT_INFO_META,
  PROTOCOL_VERSION_META,
} from '../protocol/request-meta.js';

/** The 2026 revisions `serve` answers without `initialize`: each request says its own version in `_meta`. */
export const MODERN_VERSIONS: readonly string[] = ['2026-07-28'];
/** Every revision `serve` speaks, newest first: the modern ones, then the SDK's `initialize` ones. */
export const SUPPORTED_VERSIONS: readonly string[] = [...MODERN_VERSIONS, ...SUPPORTED_PROTOCOL_VERSIONS];

export const VERSION_KEY = PROTOCOL_VERSION_META;
export const CAPABILITIES_KEY = CLIENT_CAPABILITIES_META;
export const CLIENT_INFO_KEY = CLIENT_INFO_META;
export const SERVER_INFO_KEY = 'io.modelcontextprotocol/serverInfo';

/** The 2026 error for a request whose version the server does not speak; `data` lists the supported ones. */
export const UNSUPPORTED_VERSION = -32022;
/** The 2026 error for an HTTP header that disagrees with the body (answered with HTTP 400). */
export const HEADER_MISMATCH = -32020;

/** The 2026 methods `serve` answers; the 2025-only ones (`initialize`, `ping`, …) are unknown to a 2026 client. */
export const MODERN_METHODS: ReadonlySet<string> = new Set([
  'server/discover',
  'tools/list',
  'tools/call',
  'prompts/list',
  'prompts/get',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'completion/complete',
  'tasks/get',
  'tasks/update',
  'tasks/cancel',
  'subscriptions/listen',
  'notifications/cancelled',
  'notifications/progress',
]);

/** What a 2026 request says about its client, in place of an `initialize`. */
export interface Envelope {
  version: string;
  capabilities: ClientCapabilities;
  clientInfo: Implementation | undefined;
  /** The required keys its `_meta` lacks (the request is refused with invalid params when any is). */
  missing: string[];
}

/**
 * The 2026 envelope of a request or notification: present when its `_meta` names a protocol version or client
 * capabilities (whatever their values: an unsupported version is still a 2026 message, answered with the 2026
 * error). Undefined for 2025 traffic, which never carries those keys.
 */
export function envelopeOf(message: unknown): Envelope | undefined {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return undefined;
  const params = (message as { params?: unknown }).params;
  if (typeof params !== 'object' || params === null) return undefined;
  const meta = (params as { _meta?: unknown })._meta;
  if (typeof meta !== 'object' || meta === null) return undefined;
  const m = meta as Record<string, unknown>;
  const version = m[VERSION_KEY];
  const caps = m[CAPABILITIES_KEY];
  if (version === undefined && caps === undefined) return undefined;
  const info = m[CLIENT_INFO_KEY];
  const capsOk = typeof caps === 'object' && caps !== null && !Array.isArray(caps);
  const missing = [
    ...(typeof version === 'string' ? [] : [VERSION_KEY]),
    ...(capsOk ? [] : [CAPABILITIES_KEY]),
  ];
  return {
    version: typeof version === 'string' ? version : '',
    capabilities: capsOk ? (caps as ClientCapabilities) : {},
    clientInfo: typeof info === 'object' && info !== null ? (info as Implementation) : undefined,
    missing,
  };
}

/** The 2026 answer to a request whose `_meta` lacks required keys (or is absent on a 2026 request). */
export function invalidEnvelope(id: string | number | null, missing: readonly string[]): JSONRPCMessage {
  const what = missing.length === 0 ? 'the _meta envelope' : missing.join(', ');
  return {
    jsonrpc: '2.0',
    id,
    error: { code: -32602, message: `Invalid params: the request's _meta lacks ${what}` },
  } as JSONRPCMessage;
}

/** The 2026 answer to a method it does not have (2025-only ones included). */
export function methodNotFound(id: string | number | null, method: string): JSONRPCMessage {
  return {
    jsonrpc: '2.0',
    id,
    error: { code: -32601, message: `Method not found: ${method}` },
  } as JSONRPCMessage;
}

/** The 2026 answer to a request at a version `serve` does not speak, naming the ones it does. */
export function unsupportedVersion(id: string | number | null, requested: string): JSONRPCMessage {
  return {
    jsonrpc: '2.0',
    id,
    error: {
      code: UNSUPPORTED_VERSION,
      message: `Unsupported protocol version: ${requested} (supported: ${MODERN_VERSIONS.join(', ')})`,
      data: { supported: [...MODERN_VERSIONS], requested },
    },
  } as JSONRPCMessage;
}
