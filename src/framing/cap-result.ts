// A tool result capped for a gateway: everything a client would receive counts against one byte budget, so a huge
// image, blob or structuredContent cannot pass the cap that texts obey and break a client's read buffer.

import type { BlockRendering } from './content-blocks.js';
import { isRecord } from './is-record.js';
import {
  type CappedToolResult,
  ERROR_PREFIX,
  type FlattenOptions,
  invalidToolResult,
  readToolResult,
  type ToolContentBlock,
} from './read-result.js';
import { capUtf8, normalizeMaxBytes, utf8Length } from './utf8-cap.js';

export interface CapOptions extends FlattenOptions {
  /**
   * The tool declares an `outputSchema`, so a successful result without its structuredContent is invalid (clients
   * reject it): one whose structuredContent does not fit becomes an error result rather than losing it.
   */
  structuredRequired?: boolean | undefined;
}

/** A capped result, or why there is none to pass on; `TOO_LARGE` still carries the capped result to send. */
export type CapOutcome =
  | { ok: true; result: CappedToolResult }
  | { ok: false; code: 'INVALID_RESULT'; message: string }
  | { ok: false; code: 'TOO_LARGE'; message: string; result: CappedToolResult };

/** What is left of the cap, in bytes as sent; a cut text spends it all, so nothing later disagrees with it. */
class Budget {
  constructor(
    readonly cap: number,
    private left = cap,
  ) {}

  take(text: string): string {
    if (utf8Length(text) <= this.left) {
      this.left -= utf8Length(text);
      return text;
    }
    const capped = capUtf8(text, this.left);
    this.left = 0;
    return capped;
  }

  spend(bytes: number): boolean {
    if (bytes > this.left) return false;
    this.left -= bytes;
    return true;
  }
}

function capBlock(
  block: ToolContentBlock,
  rendering: BlockRendering & { ok: true },
  budget: Budget,
): ToolContentBlock {
  if (rendering.own) {
    if (block.type === 'text') return { ...block, text: budget.take(rendering.text) };
    const resource = block.resource as Record<string, unknown>;
    return { ...block, resource: { ...resource, text: budget.take(rendering.text) } };
  }
  // Images, audio, blobs, links and unknown kinds: kept whole when they fit, else named in a text block.
  if (budget.spend(utf8Length(JSON.stringify(block)))) return block;
  const label = rendering.text.endsWith(']') ? rendering.text.slice(0, -1) : rendering.text;
  return { type: 'text', text: `${label}, omitted: over the result cap of ${budget.cap} bytes]` };
}

/**
 * Caps a CallToolResult for gateways: blocks kept as sent in order, from one shared `maxBytes` budget — texts cut,
 * binary blocks that do not fit replaced by a line naming them. structuredContent is kept only whole, in what the
 * blocks left: otherwise it is dropped and the text says so, or, for a tool with an `outputSchema`, the result
 * is `TOO_LARGE`. isError and _meta are kept. Never throws.
 */
export function capToolResultData(result: unknown, opts: CapOptions = {}): CapOutcome {
  const read = readToolResult(result);
  if (typeof read === 'string')
    return { ok: false, code: 'INVALID_RESULT', message: invalidToolResult(read) };
  const budget = new Budget(normalizeMaxBytes(opts.maxBytes));
  const content = read.blocks.map(({ block, rendering }) => capBlock(block, rendering, budget));
  if (read.toolResult2024Json !== undefined)
    content.push({ type: 'text', text: budget.take(read.toolResult2024Json) });
  const out: CappedToolResult = { content };
  const { isError, structuredContent, _meta } = read.source;
  if (typeof isError === 'boolean') out.isError = isError;
  if (isRecord(_meta)) out._meta = _meta;
  if (read.structuredJson === undefined) return { ok: true, result: out };
  const bytes = utf8Length(read.structuredJson);
  if (budget.spend(bytes)) {
    out.structuredContent = structuredContent;
    return { ok: true, result: out };
  }
  if (opts.structuredRequired === true && !read.isError) {
    const message = `result too large: structured content of ${bytes} bytes is over the result cap of ${budget.cap} bytes`;
    const text = { type: 'text', text: ERROR_PREFIX + message };
    return {
      ok: false,
      code: 'TOO_LARGE',
      message,
      result: { ...out, isError: true, content: [text, ...content] },
    };
  }
  content.push({ type: 'text', text: `[structured content of ${bytes} bytes omitted]` });
  return { ok: true, result: out };
}

/** {@link capToolResultData} as one result: a result that is none becomes one `ERROR:` text with `isError`. */
export function capToolResult(result: unknown, opts: CapOptions = {}): CappedToolResult {
  const capped = capToolResultData(result, opts);
  if (capped.ok || capped.code === 'TOO_LARGE') return capped.result;
  return { isError: true, content: [{ type: 'text', text: ERROR_PREFIX + capped.message }] };
}
