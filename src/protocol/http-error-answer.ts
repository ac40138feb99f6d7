// An HTTP error status that carries the answer to the request posted: the request failed, the link did not.

import { toJsonRpcMessage } from '../framing/json-rpc.js';

/**
 * MCP over HTTP ties some JSON-RPC errors to a status: a 2026 server refuses one request with HTTP 400 (−32602
 * params, −32020 a header that disagrees with the body, −32021 a capability the request did not declare, −32022 a
 * version) or 404 (−32601), and the body is the JSON-RPC error for that request. That is the request's answer, as
 * the same error over stdio would be; the server and the link are as good as before. 404 only outside a session:
 * inside one it means the session is gone, whatever the body says.
 */
export function mayAnswerRequest(status: number, withSession: boolean): boolean {
  return status === 400 || (status === 404 && !withSession);
}

/** True when `body` is a JSON-RPC error answering the request `posted` (same id; a request, not a notification). */
export function answersPosted(posted: unknown, body: string): boolean {
  const id = idOf(posted);
  if (id === undefined) return false;
  let answer: unknown;
  try {
    answer = JSON.parse(body);
  } catch {
    return false;
  }
  const message = toJsonRpcMessage(answer);
  return message !== undefined && 'error' in message && message.id === id;
}

function idOf(posted: unknown): string | number | undefined {
  if (typeof posted !== 'string') return undefined;
  try {
    const message = toJsonRpcMessage(JSON.parse(posted));
    return message && 'method' in message && 'id' in message ? message.id : undefined;
  } catch {
    return undefined;
  }
}
