import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { isRecord } from '../framing/is-record.js';
import type { InputRequired } from '../framing/result-type.js';
import { type CallResultOutcome, OUTCOME_CODE_META_KEY, outcomeResult } from '../protocol/call-outcome.js';
import type { CallToolResult } from '../protocol/tool-calls.js';
import { RpcError } from './rpc-error.js';

/** MCP's error for a resource no server has (2025-11-25, "Resources"). */
const RESOURCE_NOT_FOUND = -32002;

/**
 * The one table from a failure's code to the JSON-RPC error `serve` answers with. A name, reference, task, cursor
 * or call that is not right is −32602; a method the fleet cannot serve −32601; an unknown resource −32002. A code
 * not here is −32603 — and for a tool call, a tool error (`isError`) instead, as MCP has tools fail.
 */
const RPC_CODE_OF: Readonly<Record<string, number>> = {
  INVALID_CALL: ErrorCode.InvalidParams,
  INVALID_CURSOR: ErrorCode.InvalidParams,
  UNKNOWN_TOOL: ErrorCode.InvalidParams,
  UNKNOWN_PROMPT: ErrorCode.InvalidParams,
  UNKNOWN_REF: ErrorCode.InvalidParams,
  UNKNOWN_TASK: ErrorCode.InvalidParams,
  TASK_LOST: ErrorCode.InvalidParams,
  TASK_ELSEWHERE: ErrorCode.InvalidParams,
  FORBIDDEN: ErrorCode.InvalidParams,
  UNKNOWN_RESOURCE: RESOURCE_NOT_FOUND,
  NOT_SUPPORTED: ErrorCode.MethodNotFound,
  TASK_REQUIRED: ErrorCode.MethodNotFound,
};

/** What any failure of the fleet carries that its JSON-RPC error shows. */
export interface RenderedFailure {
  code: string;
  message: string;
  server?: string | undefined;
  uri?: string | undefined;
  rpcCode?: number | undefined;
  rpcMessage?: string | undefined;
  rpcData?: unknown;
}

/**
 * A failure as the JSON-RPC error a client expects (see the table), our code in `data` with the server and URI
 * it concerns. A server's own error keeps its code, and its `data` object beside ours. `verbatim` passes a
 * server's error on exactly as it sent it and adds nothing (the 2026 tasks extension relays a task's error so);
 * one of our own then carries only its code in `data`.
 */
export function rpcError(f: RenderedFailure, opts: { verbatim?: boolean } = {}): RpcError {
  const remote = f.code === 'REMOTE_ERROR' && f.rpcCode !== undefined;
  if (opts.verbatim) {
    return remote
      ? new RpcError(f.rpcCode as number, f.rpcMessage ?? f.message, f.rpcData)
      : new RpcError(RPC_CODE_OF[f.code] ?? ErrorCode.InternalError, f.message, {
          [OUTCOME_CODE_META_KEY]: f.code,
        });
  }
  const data = {
    [OUTCOME_CODE_META_KEY]: f.code,
    ...(f.server !== undefined ? { server: f.server } : {}),
    ...(f.uri !== undefined ? { uri: f.uri } : {}),
  };
  const theirs = f.rpcCode !== undefined ? { ...serverData(f.rpcData), ...data } : data;
  if (remote) return new RpcError(f.rpcCode as number, f.message, theirs);
  return new RpcError(RPC_CODE_OF[f.code] ?? ErrorCode.InternalError, f.message, theirs);
}

/**
 * What `serve` answers a `tools/call` of `name` with, rendered once from the call's outcome. A name no server
 * exposes, or a tool that runs only as a task, is its JSON-RPC error (−32602, −32601) as the spec asks. For a
 * 2026 client a server's JSON-RPC error stays that error (the spec has a server refuse an altered `requestState`
 * with −32602, which must not reach the client as a completed call), and an `input_required` round passed on is
 * the server's result as it came. Every other failure is a tool error with its code in `_meta`.
 */
export function toolCallAnswer(
  name: string,
  outcome: CallResultOutcome,
  era: '2025' | '2026',
): CallToolResult | InputRequired {
  if (outcome.ok) return outcomeResult(outcome);
  if (outcome.code === 'UNKNOWN_TOOL') throw new RpcError(ErrorCode.InvalidParams, `unknown tool '${name}'`);
  if (outcome.code === 'TASK_REQUIRED') {
    const why = `tool '${name}' runs only as a task (its execution.taskSupport is 'required'): call it with params.task`;
    throw new RpcError(ErrorCode.MethodNotFound, why, { [OUTCOME_CODE_META_KEY]: 'TASK_REQUIRED' });
  }
  if (era === '2026' && outcome.code === 'REMOTE_ERROR' && outcome.rpcCode !== undefined) {
    throw new RpcError(outcome.rpcCode, outcome.message, {
      ...serverData(outcome.rpcData),
      [OUTCOME_CODE_META_KEY]: 'REMOTE_ERROR',
    });
  }
  if (era === '2026' && outcome.code === 'INPUT_REQUIRED' && outcome.input && outcome.passed)
    return outcome.input;
  return outcomeResult(outcome);
}

/**
 * A server's error `data` for the error `serve` relays: kept when it is an object (the client may need it, as
 * −32021's `requiredCapabilities`), our code set beside it; anything else is left out.
 */
function serverData(data: unknown): Record<string, unknown> {
  if (!isRecord(data)) return {};
  const { [OUTCOME_CODE_META_KEY]: _ours, ...rest } = data;
  return rest;
}
