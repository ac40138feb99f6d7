import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { isRecord } from '../framing/is-record.js';
import {
  OUTCOME_CODE_META_KEY,
  RPC_CODE_META_KEY,
  RPC_DATA_META_KEY,
  RPC_MESSAGE_META_KEY,
} from '../protocol/call-outcome.js';
import type { CallToolResult } from '../protocol/tool-calls.js';

/**
 * What `serve` answers a tools/call of `name` with: the supervisor's result, except that a name no server exposes
 * is the JSON-RPC error −32602 the spec asks for (the library keeps it an `isError` result coded UNKNOWN_TOOL).
 * Decided on the code in `_meta`, which only the supervisor can set. For a 2026 client a server's JSON-RPC error
 * stays that error (its code and message): the spec has a server refuse an altered `requestState` with −32602,
 * which must not reach the client as a completed call.
 */
export function gatewayResult(name: string, result: CallToolResult): CallToolResult {
  if (result.isError === true && result._meta?.[OUTCOME_CODE_META_KEY] === 'UNKNOWN_TOOL') {
    throw new McpError(ErrorCode.InvalidParams, `unknown tool '${name}'`);
  }
  // MCP 2025-11-25: a tool whose execution.taskSupport is 'required', called without `task`, is −32601.
  if (result.isError === true && result._meta?.[OUTCOME_CODE_META_KEY] === 'TASK_REQUIRED') {
    const why = `tool '${name}' runs only as a task (its execution.taskSupport is 'required'): call it with params.task`;
    throw new McpError(ErrorCode.MethodNotFound, why, { [OUTCOME_CODE_META_KEY]: 'TASK_REQUIRED' });
  }
  // Set only for a 2026 client's call (see FleetCalls.result): the server's own JSON-RPC error, kept an error.
  const rpcCode = result._meta?.[RPC_CODE_META_KEY];
  if (result.isError === true && typeof rpcCode === 'number') {
    const message = result._meta?.[RPC_MESSAGE_META_KEY];
    const data = serverData(result._meta?.[RPC_DATA_META_KEY]);
    throw new McpError(rpcCode, typeof message === 'string' ? message : 'server error', {
      ...data,
      [OUTCOME_CODE_META_KEY]: 'REMOTE_ERROR',
    });
  }
  return result;
}

/**
 * A server's error `data` for the error `serve` relays: kept when it is an object (the client may need it, as
 * −32021's `requiredCapabilities`), our code set beside it; anything else is left out.
 */
export function serverData(data: unknown): Record<string, unknown> {
  if (!isRecord(data)) return {};
  const { [OUTCOME_CODE_META_KEY]: _ours, ...rest } = data;
  return rest;
}
