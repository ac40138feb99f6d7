import { isRecord } from './is-record.js';
/** JSON-RPC 2.0 message shapes, the guard the framer admits them with, and how the peers tell their kinds apart. */
export type JsonRpcId = string | number;

export interface JsonRpcRequest {
  jsonrpc: '2.0';
  id: JsonRpcId;
  method: string;
  params?: unknown;
}
export interface JsonRpcNotification {
  jsonrpc: '2.0';
  method: string;
  params?: unknown;
}
export interface JsonRpcSuccessResponse {
  jsonrpc: '2.0';
  id: JsonRpcId;
  result: unknown;
}
export interface JsonRpcErrorResponse {
  jsonrpc: '2.0';
  id: JsonRpcId | null;
  error: { code: number; message: string; data?: unknown };
}
export type JsonRpcMessage =
  | JsonRpcRequest
  | JsonRpcNotification
  | JsonRpcSuccessResponse
  | JsonRpcErrorResponse;

function isId(v: unknown): v is JsonRpcId {
  return typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));
}

/**
 * Admits a parsed value as a JSON-RPC 2.0 message: `jsonrpc: '2.0'` and exactly one of method, result, error
 * (with a usable id where one is required). Anything else is noise to the framer.
 */
export function toJsonRpcMessage(value: unknown): JsonRpcMessage | undefined {
  if (!isRecord(value) || value.jsonrpc !== '2.0') return undefined;
  const hasMethod = 'method' in value;
  const hasResult = 'result' in value;
  const hasError = 'error' in value;
  if (Number(hasMethod) + Number(hasResult) + Number(hasError) !== 1) return undefined;
  if (hasMethod) {
    if (typeof value.method !== 'string') return undefined;
    if ('id' in value && !isId(value.id)) return undefined;
    return value as unknown as JsonRpcRequest | JsonRpcNotification;
  }
  if (hasResult) return isId(value.id) ? (value as unknown as JsonRpcSuccessResponse) : undefined;
  const error = value.error;
  if (!isRecord(error) || typeof error.code !== 'number' || typeof error.message !== 'string')
    return undefined;
  return isId(value.id) || value.id === null ? (value as unknown as JsonRpcErrorResponse) : undefined;
}

/** True for a success response: the only kind that can carry a tool result. */
export function isSuccessResponse(message: JsonRpcMessage): message is JsonRpcSuccessResponse {
  return 'result' in message;
}

/** Either kind of answer to one of our requests. */
export type JsonRpcResponse = JsonRpcSuccessResponse | JsonRpcErrorResponse;

/** The method-not-found code every refused server→client request gets. */
export const METHOD_NOT_FOUND = -32601;

/** The code of a server→client request whose params cannot be taken (nested too deep to pass on). */
export const INVALID_PARAMS = -32602;

/** The code a server→client request beyond the server's rate gets (JSON-RPC's implementation-defined range). */
export const RATE_LIMITED = -32000;

// The framer admits only well-formed JSON-RPC 2.0, so telling the kinds apart needs no further distrust here.

/** A request from the peer: a method and an id (which may be 0). */
export function isRequest(m: JsonRpcMessage): m is JsonRpcRequest {
  return 'method' in m && 'id' in m;
}

/** A notification from the peer: a method, no id. */
export function isNotification(m: JsonRpcMessage): m is JsonRpcNotification {
  return 'method' in m && !('id' in m);
}

/** A response: no method. */
export function isResponse(m: JsonRpcMessage): m is JsonRpcResponse {
  return !('method' in m);
}
