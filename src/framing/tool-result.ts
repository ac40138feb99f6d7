import { capToolResultData } from './cap-result.js';
import { flattenToolResultData } from './flatten.js';
import type { JsonRpcId } from './json-rpc.js';
import type { CappedToolResult } from './read-result.js';
import { describeInputRequests, type InputRequired, resultKind } from './result-type.js';

/** What the connection wants done with one success response: flattened to text, or capped as a result. */
export interface ResultRequest {
  mode: 'text' | 'result';
  maxBytes: number;
  /** The tool declares an outputSchema: in result mode, structuredContent over the cap makes it `TOO_LARGE`. */
  structuredRequired?: boolean;
}

/** Why an answer gives no result to pass on, as data: the caller renders the text once, at its edge. */
export interface ResultFailure {
  code: 'TOOL_ERROR' | 'INVALID_RESULT' | 'TOO_LARGE' | 'INTERNAL' | 'INPUT_REQUIRED';
  message: string;
}

/**
 * A tools/call answer, with exactly one of: its flattened `text`, its capped `result` (the server's own `isError`
 * kept in it), or the failure it amounts to (`failed`: in text mode a tool's error, in either mode no result at all)
 * — save `TOO_LARGE`, whose `failed` comes with the capped error `result` to send, and `INPUT_REQUIRED`, whose
 * `result` is the server's InputRequiredResult, not a tool result at all.
 */
export interface ToolResultEvent {
  kind: 'tool-result';
  id: JsonRpcId;
  text?: string;
  result?: CappedToolResult | InputRequired;
  failed?: ResultFailure;
}

/** Flattens or caps a tool result as asked; the one function both the inline and the worker paths use. */
export function toolResultEvent(id: JsonRpcId, result: unknown, request: ResultRequest): ToolResultEvent {
  const kind = resultKind(result);
  if (kind.kind === 'invalid')
    return { kind: 'tool-result', id, failed: { code: 'INVALID_RESULT', message: kind.message } };
  if (kind.kind === 'input_required') {
    const message = `the server needs input first: ${describeInputRequests(kind.input)}`;
    return { kind: 'tool-result', id, result: kind.input, failed: { code: 'INPUT_REQUIRED', message } };
  }
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
