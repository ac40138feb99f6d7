import { capToolResultData } from './cap-result.js';
import { flattenToolResultData } from './flatten.js';
import type { JsonRpcId } from './json-rpc.js';
import type { CappedToolResult } from './read-result.js';

/** What the connection wants done with one success response: flattened to text, or capped as a result. */
export interface ResultRequest {
  mode: 'text' | 'result';
  maxBytes: number;
  /** The tool declares an outputSchema: in result mode, structuredContent over the cap makes it `TOO_LARGE`. */
  structuredRequired?: boolean;
}

/** Why an answer gives no result to pass on, as data: the caller renders the text once, at its edge. */
export interface ResultFailure {
  code: 'TOOL_ERROR' | 'INVALID_RESULT' | 'TOO_LARGE' | 'INTERNAL';
  message: string;
}

/**
 * A tools/call answer, with exactly one of: its flattened `text`, its capped `result` (the server's own `isError`
 * kept in it), or the failure it amounts to (`failed`: in text mode a tool's error, in either mode no result at all)
 * — save `TOO_LARGE`, whose `failed` comes with the capped error `result` to send.
 */
export interface ToolResultEvent {
  kind: 'tool-result';
  id: JsonRpcId;
  text?: string;
  result?: CappedToolResult;
  failed?: ResultFailure;
}

/** Flattens or caps a tool result as asked; the one function both the inline and the worker paths use. */
export function toolResultEvent(id: JsonRpcId, result: unknown, request: ResultRequest): ToolResultEvent {
  if (request.mode === 'result') {
    const capped = capToolResultData(result, {
      maxBytes: request.maxBytes,
      structuredRequired: request.structuredRequired,
    });
    if (capped.ok) return { kind: 'tool-result', id, result: capped.result };
    if (capped.code === 'TOO_LARGE') {
      const failed = { code: capped.code, message: capped.message };
      return { kind: 'tool-result', id, result: capped.result, failed };
    }
    return { kind: 'tool-result', id, failed: { code: capped.code, message: capped.message } };
  }
  const flat = flattenToolResultData(result, { maxBytes: request.maxBytes });
  if (flat.ok) return { kind: 'tool-result', id, text: flat.text };
  return { kind: 'tool-result', id, failed: { code: flat.code, message: flat.message } };
}

/** The tool-result a call gets when its answer could not be decoded at all (e.g. a worker died on it). */
export function failedToolResultEvent(id: JsonRpcId, why: string): ToolResultEvent {
  return {
    kind: 'tool-result',
    id,
    failed: { code: 'INTERNAL', message: `could not decode the tool result: ${why}` },
  };
}
