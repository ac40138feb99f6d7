// A tool result read once, for both flattening (text for a transcript) and capping (a result for a gateway).

import { type BlockRendering, describeType, renderBlock } from './content-blocks.js';
import { isRecord } from './is-record.js';
import { MAX_JSON_DEPTH, nestedDeeperThan } from './json-depth.js';
import { utf8Length } from './utf8-cap.js';

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

export interface ReadResult {
  blocks: { block: ToolContentBlock; rendering: BlockRendering & { ok: true } }[];
  /** Compact JSON of structuredContent, when present. */
  structuredJson?: string;
  /** Compact JSON of a 2024-10-07 `toolResult`, when that is all there is. */
  toolResult2024Json?: string;
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
export function readToolResult(result: unknown): ReadResult | string {
  if (!isRecord(result)) return `expected an object, got ${describeType(result)}`;
  // Nothing past this depth can be written out or cloned again (json-depth.ts): refused whole, with the reason.
  if (nestedDeeperThan(result, MAX_JSON_DEPTH)) return `nests more than ${MAX_JSON_DEPTH} levels deep`;
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
      out.toolResult2024Json = json;
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

/** What every failure a caller reads as text starts with. */
export const ERROR_PREFIX = 'ERROR: ';
export const ERROR_PREFIX_BYTES = utf8Length(ERROR_PREFIX);

/** The message of a result that is not one (rendered `ERROR: invalid tool result: …`). */
export function invalidToolResult(problem: string): string {
  return `invalid tool result: ${problem}`;
}
