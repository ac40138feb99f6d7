/** JSON-RPC 2.0 message shapes as the framer delivers them, and the guard that admits them. */
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

type Loose = Record<string, unknown>;

function isRecord(v: unknown): v is Loose {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

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
