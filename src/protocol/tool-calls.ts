import { DEFAULT_SERVER_LIMITS } from '../config/limits.js';
import type { InputRequired } from '../framing/result-type.js';
import type { DiscoveredTool } from '../registry/server-tools.js';
import { MAX_TOTAL_FACTOR, type SettledCall } from './call-options.js';
import {
  type CallFailure,
  type CallOutcome,
  type CallResultOutcome,
  type CallToolResult,
  callFailure,
  failureFromError,
  outcomeResult,
  outcomeText,
} from './call-outcome.js';
import type { McpConnection } from './connection.js';
import type { RequestOptions } from './connection-types.js';
import { SupervisorError } from './errors.js';
import type { ToolResultValue } from './pending-requests.js';
import { traceMeta } from './request-meta.js';
import { describeCut, listTools } from './tool-listing.js';

export type { CallToolResult };

/** A tool as a server lists it (MCP `Tool`), before the fleet namespaces it. */
export type ListedTool = DiscoveredTool;

/**
 * Lists every tool within `timeoutMs` and the default listing bounds, or rejects (SupervisorError/RemoteError):
 * for callers that want all or nothing. The supervisor itself uses `listTools`, which keeps what a cut listing got.
 */
export async function listAllTools(conn: McpConnection, timeoutMs: number): Promise<ListedTool[]> {
  const { tools, cut } = await listTools(conn, {
    timeoutMs,
    maxBytes: DEFAULT_SERVER_LIMITS.listBytes,
    maxPages: DEFAULT_SERVER_LIMITS.listPages,
  });
  if (!cut) return tools;
  throw new SupervisorError(cut.bound === 'time' ? 'REQUEST_TIMEOUT' : 'INVALID_RESPONSE', describeCut(cut));
}

/** Calls a tool and resolves its flattened, capped text or the failure; never rejects. */
export function callToolOutcome(
  conn: McpConnection,
  name: string,
  args: Record<string, unknown> | undefined,
  opts: SettledCall,
): Promise<CallOutcome> {
  return request(conn, name, args, opts, 'text').then((value) => textOutcome(value, opts, name));
}

function textOutcome(value: ToolResultValue | CallFailure, opts: SettledCall, name: string): CallOutcome {
  if ('ok' in value) return value;
  if (value.failed) return failed(value, opts, name);
  if (value.text === undefined)
    return callFailure('INVALID_RESULT', 'invalid tool result', where(opts, name));
  return { ok: true, text: value.text };
}

/** Calls a tool and resolves the capped MCP result or the failure; never rejects. */
export function callToolResultOutcome(
  conn: McpConnection,
  name: string,
  args: Record<string, unknown> | undefined,
  opts: SettledCall,
): Promise<CallResultOutcome> {
  return request(conn, name, args, opts, 'result').then((value) => resultOutcome(value, opts, name));
}

function resultOutcome(
  value: ToolResultValue | CallFailure,
  opts: SettledCall,
  name: string,
): CallResultOutcome {
  if ('ok' in value) return value;
  if (value.failed) {
    const failure = failed(value, opts, name);
    // TOO_LARGE comes with the capped error result to send: the text that fit, and why the rest did not.
    if (value.result === undefined || failure.input !== undefined) return failure;
    return { ...failure, result: value.result as CallToolResult };
  }
  if (value.result === undefined)
    return callFailure('INVALID_RESULT', 'invalid tool result', where(opts, name));
  const result = value.result as CallToolResult;
  if (result.isError !== true) return { ok: true, result };
  const texts = result.content.filter((b) => b.type === 'text' && typeof b.text === 'string');
  const message = texts.map((b) => b.text).join('\n') || '(no content)';
  return { ...callFailure('TOOL_ERROR', message, where(opts, name)), result };
}

/** {@link callToolOutcome} rendered: the text, or an `ERROR: ` string. */
export function callToolText(
  conn: McpConnection,
  name: string,
  args: Record<string, unknown> | undefined,
  opts: SettledCall,
): Promise<string> {
  return callToolOutcome(conn, name, args, opts).then(outcomeText);
}

/** {@link callToolResultOutcome} rendered: a failure is `isError` with one `ERROR:` text and its code in `_meta`. */
export async function callToolResult(
  conn: McpConnection,
  name: string,
  args: Record<string, unknown> | undefined,
  opts: SettledCall,
): Promise<CallToolResult> {
  return outcomeResult(await callToolResultOutcome(conn, name, args, opts));
}

/**
 * Sends one tools/call; resolves the decoder's value or the failure, never rejects. Written without an async frame
 * (this runs on every call, and an async function's frame is most of what a call allocates).
 */
function request(
  conn: McpConnection,
  name: string,
  args: Record<string, unknown> | undefined,
  opts: SettledCall,
  mode: 'text' | 'result',
): Promise<ToolResultValue | CallFailure> {
  const req: RequestOptions = {
    timeoutMs: opts.timeoutMs,
    signal: opts.signal,
    result: { mode, maxBytes: opts.maxBytes, structuredRequired: opts.structuredRequired === true },
  };
  if (opts.inputCapabilities) req.capabilities = opts.inputCapabilities;
  if (opts.caller !== undefined) req.caller = opts.caller;
  if (opts.onProgress) {
    req.progress = {
      onProgress: opts.onProgress,
      maxTotalMs: opts.maxTotalMs ?? opts.timeoutMs * MAX_TOTAL_FACTOR,
    };
  }
  let sent: Promise<unknown>;
  try {
    sent = conn.request('tools/call', callParams(name, args, opts), req);
  } catch (err) {
    return Promise.resolve(requestFailure(err, opts, name));
  }
  return (sent as Promise<ToolResultValue>).catch((err: unknown) => requestFailure(err, opts, name));
}

function requestFailure(err: unknown, opts: SettledCall, name: string): CallFailure {
  const failure = failureFromError(err, where(opts, name));
  // A timeout names the caller's tool and the whole budget it gave, not the part left after waiting for ready;
  // a call that progress kept going names the total bound that ended it.
  if (failure.code === 'TIMEOUT') {
    const total =
      err instanceof SupervisorError ? (err.data as { totalMs?: number } | undefined)?.totalMs : undefined;
    failure.message =
      total !== undefined
        ? `tool '${opts.label ?? name}' timed out after ${total} ms in all (progress kept it going until then)`
        : `tool '${opts.label ?? name}' timed out after ${opts.budgetMs ?? opts.timeoutMs} ms`;
  }
  return failure;
}

/** The tools/call params: a retry's answers and state beside the arguments, and the trace context in `_meta`. */
export function callParams(
  name: string,
  args: Record<string, unknown> | undefined,
  opts: Pick<SettledCall, 'retry' | 'trace'>,
): Record<string, unknown> {
  const params: Record<string, unknown> = { name, arguments: args ?? {} };
  if (opts.retry?.inputResponses !== undefined) params.inputResponses = opts.retry.inputResponses;
  if (opts.retry?.requestState !== undefined) params.requestState = opts.retry.requestState;
  const meta = traceMeta(opts.trace as Record<string, unknown> | undefined);
  if (meta) params._meta = meta;
  return params;
}

function failed(value: ToolResultValue, opts: SettledCall, name: string): CallFailure {
  const f = value.failed!;
  const failure = callFailure(f.code, f.message, where(opts, name));
  if (f.code === 'INPUT_REQUIRED') failure.input = value.result as InputRequired;
  return failure;
}

function where(opts: SettledCall, name: string): { server?: string | undefined; tool: string } {
  return { server: opts.server, tool: opts.label ?? name };
}
