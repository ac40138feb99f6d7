import {
  ERROR_PREFIX,
  ERROR_PREFIX_BYTES,
  type FlattenOptions,
  invalidToolResult,
  type ReadResult,
  readToolResult,
} from './read-result.js';
import { capUtf8, normalizeMaxBytes } from './utf8-cap.js';

export { capToolResult, capToolResultData } from './cap-result.js';
export {
  type CappedToolResult,
  ERROR_PREFIX,
  type FlattenOptions,
  invalidToolResult,
  type ToolContentBlock,
} from './read-result.js';

/**
 * A flattened result as data: its text, or why it failed — the server's own `isError` (`TOOL_ERROR`) or no tool
 * result at all (`INVALID_RESULT`). A failure's message is capped to leave room for the `ERROR: ` in front of it.
 */
export type FlatResult =
  | { ok: true; text: string }
  | { ok: false; code: 'TOOL_ERROR' | 'INVALID_RESULT'; message: string };

/** Flattens a CallToolResult as {@link flattenToolResult} does, keeping a failure as data. Never throws. */
export function flattenToolResultData(result: unknown, { maxBytes }: FlattenOptions = {}): FlatResult {
  const cap = normalizeMaxBytes(maxBytes);
  const room = Math.max(0, cap - ERROR_PREFIX_BYTES);
  const read = readToolResult(result);
  if (typeof read === 'string') {
    return { ok: false, code: 'INVALID_RESULT', message: capUtf8(invalidToolResult(read), room) };
  }
  const body = flatBody(read);
  if (!read.isError) return { ok: true, text: capUtf8(body, cap) };
  return { ok: false, code: 'TOOL_ERROR', message: capUtf8(body === '' ? '(no content)' : body, room) };
}

function flatBody(read: ReadResult): string {
  const parts = read.blocks.map((b) => b.rendering.text);
  // Servers put the same data in text and structuredContent; the JSON is only a fallback for a result without text.
  if (read.structuredJson !== undefined && !read.blocks.some((b) => b.rendering.own)) {
    parts.push(read.structuredJson);
  }
  if (read.toolResult2024Json !== undefined) parts.push(read.toolResult2024Json);
  return parts.join('\n');
}

/**
 * Flattens an MCP CallToolResult into one capped string for a transcript: text joined by newlines,
 * placeholders for binary content, `ERROR: ` for failures. Never throws, whatever it is given.
 */
export function flattenToolResult(result: unknown, { maxBytes }: FlattenOptions = {}): string {
  const cap = normalizeMaxBytes(maxBytes);
  const read = readToolResult(result);
  if (typeof read === 'string') return capUtf8(ERROR_PREFIX + invalidToolResult(read), cap);
  const body = flatBody(read);
  return capUtf8(read.isError ? `${ERROR_PREFIX}${body === '' ? '(no content)' : body}` : body, cap);
}
