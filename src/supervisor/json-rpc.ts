import type {
  JsonRpcErrorResponse,
  JsonRpcMessage,
  JsonRpcNotification,
  JsonRpcRequest,
  JsonRpcSuccessResponse,
} from '../workers/jsonrpc.js';

export type {
  JsonRpcId,
  JsonRpcMessage,
  JsonRpcNotification,
  JsonRpcRequest,
} from '../workers/jsonrpc.js';

/** Either kind of answer to one of our requests. */
export type JsonRpcResponse = JsonRpcSuccessResponse | JsonRpcErrorResponse;

/** The method-not-found code every refused server→client request gets. */
export const METHOD_NOT_FOUND = -32601;

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
