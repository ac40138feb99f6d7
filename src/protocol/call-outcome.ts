import { ERROR_PREFIX } from '../framing/flatten.js';
import type { InputRequired } from '../framing/result-type.js';
import { RemoteError, SupervisorError, type SupervisorErrorCode } from './errors.js';

/** An MCP CallToolResult as a gateway passes it on: blocks kept, texts capped, `isError` kept. */
export interface CallToolResult {
  content: Array<Record<string, unknown>>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
}

/** Why a call failed, as a string a host (and the CLI, and health) can decide on. Documented in docs/outcomes.md. */
export type CallErrorCode =
  /** The call itself is malformed: name, arguments or options of the wrong kind. */
  | 'INVALID_CALL'
  /** The supervisor was stopped. */
  | 'STOPPED'
  /** No ready server exposes that name. */
  | 'UNKNOWN_TOOL'
  /** The caller's scopes do not grant what the tool requires. */
  | 'FORBIDDEN'
  /** The server is failed, untrusted or stopped, did not become ready within the call's timeout, or cannot be written to. */
  | 'SERVER_DOWN'
  /** The server did not answer within the call's timeout (it is told to cancel; it counts toward health). */
  | 'TIMEOUT'
  /** The caller's AbortSignal fired. */
  | 'CANCELLED'
  /** The answer was larger than the line limit and was discarded; the connection lives on. */
  | 'TOO_LARGE'
  /** The server stopped reading its stdin and what was queued for it passed its bound. */
  | 'QUEUE_FULL'
  /** The server exited (or was killed) before answering. */
  | 'SERVER_EXITED'
  /** A server reached over HTTP dropped the connection (or lost our session) before answering. */
  | 'SERVER_DISCONNECTED'
  /** The server answered with a JSON-RPC error (its code is `rpcCode`). */
  | 'REMOTE_ERROR'
  /** The tool's `execution.taskSupport` is `required`: it runs only as a task (`callToolAsTask`). */
  | 'TASK_REQUIRED'
  /** The server answered with a result marked `isError`: the tool ran and reported a failure. */
  | 'TOOL_ERROR'
  /** The server answered with something that is not a tool result. */
  | 'INVALID_RESULT'
  /** The server needs input first (MCP 2026-07-28 `input_required`) and no `onInputRequired` answered it. */
  | 'INPUT_REQUIRED'
  /** The server kept asking for input past the bound on rounds of one call. */
  | 'INPUT_ROUNDS'
  /** A retry with `requestState` named a tool that now belongs to another server than the one that asked. */
  | 'ROUTE_CHANGED'
  /** A fault of the supervisor itself (e.g. a worker thread died decoding the answer). */
  | 'INTERNAL';

/** A failed call: the code to decide on, and the text for people (rendered as `ERROR: <message>`). */
export interface CallFailure {
  ok: false;
  code: CallErrorCode;
  message: string;
  /** The server that owns the tool, once the call got that far. */
  server?: string;
  /** The name the caller used. */
  tool?: string;
  /** The JSON-RPC error code, for `REMOTE_ERROR`. */
  rpcCode?: number;
  /** The JSON-RPC error's message as the server sent it, for `REMOTE_ERROR` (`message` says whose it is). */
  rpcMessage?: string;
  /** The JSON-RPC error's `data` as the server sent it, for `REMOTE_ERROR` (e.g. −32021's `requiredCapabilities`). */
  rpcData?: unknown;
  /** For `INPUT_REQUIRED`: what the server asked (`inputRequests`) and the `requestState` a retry must carry. */
  input?: InputRequired;
  /** For `INPUT_REQUIRED`: the round was passed on as it came (`passInputRequired`), for the caller to answer. */
  passed?: true;
}

/** The result of every call: the flattened text, or a failure with its code. */
export type CallOutcome = { ok: true; text: string } | CallFailure;

/** The same for gateways: the capped MCP result; a `TOOL_ERROR` keeps the server's own result. */
export type CallResultOutcome =
  | { ok: true; result: CallToolResult }
  | (CallFailure & { result?: CallToolResult });

/** What a call's answer is decoded to: the flattened text, or the capped MCP result (for gateways). */
export type CallDecode = 'text' | 'result';

/** The outcome of a call decoded as `D`. */
export type OutcomeOf<D extends CallDecode> = D extends 'text' ? CallOutcome : CallResultOutcome;

/** The `_meta` key under which `callToolResult()` puts a failure's code. */
export const OUTCOME_CODE_META_KEY = 'mcp-supervisor/code';

/** A failure with the call's context; `message` is what people read after `ERROR: `. */
export function callFailure(
  code: CallErrorCode,
  message: string,
  where: { server?: string | undefined; tool?: string | undefined } = {},
): CallFailure {
  const out: CallFailure = { ok: false, code, message };
  if (where.server !== undefined) out.server = where.server;
  if (where.tool !== undefined) out.tool = where.tool;
  return out;
}

const FROM_SUPERVISOR_ERROR: Record<SupervisorErrorCode, CallErrorCode> = {
  SPAWN_FAILED: 'SERVER_DOWN',
  HANDSHAKE_TIMEOUT: 'SERVER_DOWN',
  HANDSHAKE_FAILED: 'SERVER_DOWN',
  UNSUPPORTED_PROTOCOL: 'SERVER_DOWN',
  CLOSED: 'SERVER_DOWN',
  WRITE_FAILED: 'SERVER_DOWN',
  UNWRITABLE_REQUEST: 'INVALID_CALL',
  SERVER_EXITED: 'SERVER_EXITED',
  CONNECT_FAILED: 'SERVER_DOWN',
  SERVER_DISCONNECTED: 'SERVER_DISCONNECTED',
  REQUEST_TIMEOUT: 'TIMEOUT',
  REQUEST_CANCELLED: 'CANCELLED',
  RESULT_TOO_LARGE: 'TOO_LARGE',
  INVALID_RESPONSE: 'INVALID_RESULT',
  QUEUE_FULL: 'QUEUE_FULL',
};

/** The code a failure of the connection (or anything thrown) maps to. */
export function codeOfError(err: unknown): CallErrorCode {
  if (err instanceof SupervisorError) return FROM_SUPERVISOR_ERROR[err.code];
  if (err instanceof RemoteError) return 'REMOTE_ERROR';
  return 'INTERNAL';
}

/** Any rejection of a call as a failure; the text of each is the one callers have always read. */
export function failureFromError(
  err: unknown,
  where: { server?: string | undefined; tool?: string | undefined } = {},
): CallFailure {
  const code = codeOfError(err);
  if (err instanceof RemoteError) {
    const failure = {
      ...callFailure(code, `server error ${err.code}: ${err.message}`, where),
      rpcCode: err.code,
      rpcMessage: err.message,
    };
    return err.data !== undefined ? { ...failure, rpcData: err.data } : failure;
  }
  return callFailure(code, err instanceof Error ? err.message : String(err), where);
}

/** The one rendering of a failure for people: `ERROR: <message>`. */
export function failureText(failure: CallFailure): string {
  return `${ERROR_PREFIX}${failure.message}`;
}

/** What `callTool()` resolves to: the text, or `ERROR: …`. */
export function outcomeText(outcome: CallOutcome): string {
  return outcome.ok ? outcome.text : failureText(outcome);
}

/**
 * What `callToolResult()` resolves to: the server's result, or one `ERROR: …` text block; every failure carries
 * its code in `_meta` (a tool's own error keeps its blocks and gets the code beside its own `_meta`). An
 * `input_required` round passed on (`passInputRequired`) is the server's InputRequiredResult, with no content.
 */
export function outcomeResult(outcome: CallResultOutcome): CallToolResult {
  if (outcome.ok) return withoutCode(outcome.result);
  if (outcome.code === 'INPUT_REQUIRED' && outcome.input && outcome.passed)
    return { content: [], ...outcome.input };
  const meta = { [OUTCOME_CODE_META_KEY]: outcome.code };
  if (outcome.result) return { ...outcome.result, _meta: { ...outcome.result._meta, ...meta } };
  return { isError: true, content: [{ type: 'text', text: failureText(outcome) }], _meta: meta };
}

/** A server's own result, minus any code it put under our key: only the supervisor says a call failed. */
function withoutCode(result: CallToolResult): CallToolResult {
  if (!result._meta || !(OUTCOME_CODE_META_KEY in result._meta)) return result;
  const { [OUTCOME_CODE_META_KEY]: _spoofed, ...meta } = result._meta;
  return { ...result, _meta: meta };
}
