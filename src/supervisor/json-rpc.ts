/** JSON-RPC 2.0 shapes as they cross the stdio pipe, and guards that tell them apart without trusting the peer. */
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
export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}
export interface JsonRpcResponse {
  jsonrpc: '2.0';
  id: JsonRpcId | null;
  result?: unknown;
  error?: JsonRpcErrorObject;
}
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

/** The method-not-found code every refused server→client request gets. */
export const METHOD_NOT_FOUND = -32601;

type Loose = Record<string, unknown>;
const isObj = (v: unknown): v is Loose => typeof v === 'object' && v !== null && !Array.isArray(v);
const isId = (v: unknown): v is JsonRpcId =>
  typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));

/** A request from the peer: a method and an id (which may be 0). */
export function isRequest(m: unknown): m is JsonRpcRequest {
  return isObj(m) && typeof m.method === 'string' && 'id' in m && isId(m.id);
}

/** A notification from the peer: a method, no id. */
export function isNotification(m: unknown): m is JsonRpcNotification {
  return isObj(m) && typeof m.method === 'string' && !('id' in m);
}

/** A response: an id and exactly one of result or error, no method. */
export function isResponse(m: unknown): m is JsonRpcResponse {
  if (!isObj(m) || 'method' in m || !('id' in m)) return false;
  if (!(isId(m.id) || m.id === null)) return false;
  if ('error' in m) return isObj(m.error) && typeof m.error.code === 'number';
  return 'result' in m;
}
