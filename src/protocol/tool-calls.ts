import { DEFAULT_SERVER_LIMITS } from '../config/limits.js';
import type { DiscoveredTool } from '../registry/server-tools.js';
import type { SettledCall } from './call-options.js';
import type { McpConnection } from './connection.js';
import { errorText, SupervisorError } from './errors.js';
import type { ToolResultValue } from './pending-requests.js';
import { describeCut, listTools } from './tool-listing.js';

/** A tool as a server lists it (MCP `Tool`), before the fleet namespaces it. */
export type ListedTool = DiscoveredTool;

/** An MCP CallToolResult as a gateway passes it on: blocks kept, texts capped, `isError` kept. */
export interface CallToolResult {
  content: Array<Record<string, unknown>>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

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

/** Calls a tool and resolves its flattened, capped text; never rejects: every failure is an `ERROR: ` string. */
export async function callToolText(
  conn: McpConnection,
  name: string,
  args: Record<string, unknown> | undefined,
  opts: SettledCall,
): Promise<string> {
  try {
    const value = (await conn.request(
      'tools/call',
      { name, arguments: args ?? {} },
      { timeoutMs: opts.timeoutMs, signal: opts.signal, result: { mode: 'text', maxBytes: opts.maxBytes } },
    )) as ToolResultValue;
    return value.text ?? 'ERROR: invalid tool result';
  } catch (err) {
    return describeCallError(opts.label ?? name, err, opts.budgetMs);
  }
}

/** Calls a tool and resolves the capped MCP result; never rejects: a failure is `isError` with one `ERROR:` text. */
export async function callToolResult(
  conn: McpConnection,
  name: string,
  args: Record<string, unknown> | undefined,
  opts: SettledCall,
): Promise<CallToolResult> {
  try {
    const value = (await conn.request(
      'tools/call',
      { name, arguments: args ?? {} },
      { timeoutMs: opts.timeoutMs, signal: opts.signal, result: { mode: 'result', maxBytes: opts.maxBytes } },
    )) as ToolResultValue;
    return (value.result as CallToolResult | undefined) ?? errorResult('ERROR: invalid tool result');
  } catch (err) {
    return errorResult(describeCallError(opts.label ?? name, err, opts.budgetMs));
  }
}

/** The one-text-block error result gateways receive for any failure. */
export function errorResult(text: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text }] };
}

function describeCallError(name: string, err: unknown, budgetMs: number | undefined): string {
  if (err instanceof SupervisorError && err.code === 'REQUEST_TIMEOUT') {
    if (budgetMs !== undefined) return `ERROR: tool '${name}' timed out after ${budgetMs} ms`;
    return `ERROR: tool '${name}' ${err.message.replace(/^'tools\/call' /, '')}`;
  }
  return errorText(err);
}
