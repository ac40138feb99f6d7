import { type CappedToolResult, capToolResult, flattenToolResult } from './flatten.js';
import type { JsonRpcId } from './json-rpc.js';

/** What the connection wants done with one success response: flattened to text, or capped as a result. */
export interface ResultRequest {
  mode: 'text' | 'result';
  maxBytes: number;
}

/** A tools/call answer, already flattened (`text`) or capped (`result`). */
export type ToolResultEvent =
  | { kind: 'tool-result'; id: JsonRpcId; text: string }
  | { kind: 'tool-result'; id: JsonRpcId; result: CappedToolResult };

/** Flattens or caps a tool result as asked; the one function both the inline and the worker paths use. */
export function toolResultEvent(id: JsonRpcId, result: unknown, request: ResultRequest): ToolResultEvent {
  if (request.mode === 'result') {
    return { kind: 'tool-result', id, result: capToolResult(result, { maxBytes: request.maxBytes }) };
  }
  return { kind: 'tool-result', id, text: flattenToolResult(result, { maxBytes: request.maxBytes }) };
}

/** The tool-result a call gets when its answer could not be decoded at all (e.g. a worker died on it). */
export function failedToolResultEvent(id: JsonRpcId, request: ResultRequest, why: string): ToolResultEvent {
  const text = `ERROR: could not decode the tool result: ${why}`;
  if (request.mode === 'result') {
    return { kind: 'tool-result', id, result: { isError: true, content: [{ type: 'text', text }] } };
  }
  return { kind: 'tool-result', id, text };
}
