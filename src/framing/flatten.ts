import { type BlockRendering, describeType, renderBlock } from './content-blocks.js';
import { isRecord } from './is-record.js';
import { capUtf8, normalizeMaxBytes, utf8Length } from './utf8-cap.js';

/** An MCP content block, kept as the server sent it apart from capped text. */
export type ToolContentBlock = { type: string } & Record<string, unknown>;

/** A CallToolResult-shaped object whose texts are capped; what gateways forward. */
export interface CappedToolResult {
  content: ToolContentBlock[];
  isError?: boolean;
  structuredContent?: unknown;
  _meta?: Record<string, unknown>;
}

export interface FlattenOptions {
  /** UTF-8 byte cap (default 64 KiB). */
  maxBytes?: number | undefined;
}

interface ReadResult {
  blocks: { block: ToolContentBlock; rendering: BlockRendering & { ok: true } }[];
  /** Compact JSON of structuredContent, when present. */
  structuredJson?: string;
  /** Compact JSON of a 2024-10-07 `toolResult`, when that is all there is. */
  legacyJson?: string;
  isError: boolean;
  source: Record<string, unknown>;
}

function toJson(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}

/** Validates a tool result and renders each block, or says what is wrong with it. */
function readToolResult(result: unknown): ReadResult | string {
  if (!isRecord(result)) return `expected an object, got ${describeType(result)}`;
  const out: ReadResult = { blocks: [], isError: result.isError === true, source: result };
  const { content, structuredContent, toolResult } = result;
  if (structuredContent !== undefined) {
    const json = toJson(structuredContent);
    if (json === undefined) return 'structuredContent is not JSON';
    out.structuredJson = json;
  }
  if (content === undefined) {
    if (toolResult !== undefined) {
      const json = toJson(toolResult);
      if (json === undefined) return 'toolResult is not JSON';
      out.legacyJson = json;
    } else if (structuredContent === undefined) return 'missing content';
    return out;
  }
  if (!Array.isArray(content)) return `content is ${describeType(content)}, not an array`;
  for (let i = 0; i < content.length; i++) {
    const rendering = renderBlock(content[i], i);
    if (!rendering.ok) return rendering.problem;
    out.blocks.push({ block: content[i] as ToolContentBlock, rendering });
  }
  return out;
}

/** True when some text block already carries the structured content as JSON (compact or pretty). */
function carriesStructured(read: ReadResult, json: string): boolean {
  for (const { block, rendering } of read.blocks) {
    if (block.type !== 'text') continue;
    const text = rendering.text;
    if (text === json) return true;
    const first = text.trimStart()[0];
    if ((first !== '{' && first !== '[') || text.length > json.length * 4 + 64) continue;
    try {
      if (JSON.stringify(JSON.parse(text)) === json) return true;
    } catch {
      // not JSON: it does not carry it
    }
  }
  return false;
}

/** What every failure a caller reads as text starts with. */
export const ERROR_PREFIX = 'ERROR: ';
const ERROR_PREFIX_BYTES = utf8Length(ERROR_PREFIX);

/** The message of a result that is not one (rendered `ERROR: invalid tool result: …`). */
export function invalidToolResult(problem: string): string {
  return `invalid tool result: ${problem}`;
}

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
  if (read.structuredJson !== undefined && !carriesStructured(read, read.structuredJson)) {
    parts.push(read.structuredJson);
  }
  if (read.legacyJson !== undefined) parts.push(read.legacyJson);
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

/**
 * Caps a CallToolResult for gateways: blocks kept as sent, their texts capped from one shared `maxBytes`
 * budget (so many blocks cannot add up past it), isError / structuredContent / _meta kept. Never throws.
 */
export function capToolResult(result: unknown, opts: FlattenOptions = {}): CappedToolResult {
  const capped = capToolResultData(result, opts);
  if (capped.ok) return capped.result;
  return { isError: true, content: [{ type: 'text', text: ERROR_PREFIX + capped.message }] };
}

/** Caps a CallToolResult as {@link capToolResult} does, keeping "not a tool result" as data. Never throws. */
export function capToolResultData(
  result: unknown,
  { maxBytes }: FlattenOptions = {},
): { ok: true; result: CappedToolResult } | { ok: false; code: 'INVALID_RESULT'; message: string } {
  const read = readToolResult(result);
  if (typeof read === 'string')
    return { ok: false, code: 'INVALID_RESULT', message: invalidToolResult(read) };
  let budget = normalizeMaxBytes(maxBytes);
  const take = (text: string): string => {
    const capped = capUtf8(text, budget);
    budget = Math.max(0, budget - utf8Length(capped));
    return capped;
  };
  const content: ToolContentBlock[] = read.blocks.map(({ block, rendering }) => {
    if (!rendering.own) return block;
    if (block.type === 'text') return { ...block, text: take(rendering.text) };
    return {
      ...block,
      resource: { ...(block.resource as Record<string, unknown>), text: take(rendering.text) },
    };
  });
  if (read.legacyJson !== undefined) content.push({ type: 'text', text: take(read.legacyJson) });
  const out: CappedToolResult = { content };
  const { isError, structuredContent, _meta } = read.source;
  if (typeof isError === 'boolean') out.isError = isError;
  if (structuredContent !== undefined) out.structuredContent = structuredContent;
  if (isRecord(_meta)) out._meta = _meta;
  return { ok: true, result: out };
}
