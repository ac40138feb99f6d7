// The `Mcp-Param-*` headers of a 2026 `tools/call` over HTTP, from the server's own `tools/list` answers.

import { isRecord } from '../framing/is-record.js';

/** One argument a tool mirrors in a header: where it sits in `arguments`, and the header's name suffix. */
interface Mirrored {
  path: string[];
  header: string;
}

// RFC 9110's token: what a header name may hold. A declaration outside it is not sent (no header could carry it).
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const SENTINEL = /^=\?base64\?.*\?=$/s;
// Listings whose answer never came (timed out) are forgotten past this many.
const MAX_LISTINGS = 16;

/**
 * MCP 2026-07-28 (SEP-2243): a tool's input schema may mark a primitive argument `x-mcp-header: NAME`, and a call
 * then carries `Mcp-Param-NAME` with that argument's value, so anything on the way can route on it without the
 * body; the server refuses a call whose header is missing or disagrees (−32020). The link learns which tools
 * mirror what from the `tools/list` answers it carries (every page of the listing it posted), as any client does
 * from its own listing, and adds the headers to each `tools/call` it posts.
 */
export class ParamHeaders {
  /** The ids of `tools/list` requests posted and not yet answered; true for a listing's first page. */
  private readonly listing = new Map<string | number, boolean>();
  private byTool = new Map<string, Mirrored[]>();

  /** A message the link posts: a `tools/list` request is remembered until its answer. */
  sent(message: unknown): void {
    if (!isRecord(message) || message.method !== 'tools/list') return;
    const id = message.id;
    if (typeof id !== 'string' && typeof id !== 'number') return;
    if (this.listing.size >= MAX_LISTINGS) this.listing.delete(this.listing.keys().next().value!);
    this.listing.set(id, !isRecord(message.params) || message.params.cursor === undefined);
  }

  /** A message the server sent: the answer to a `tools/list` posted (a first page starts the map afresh). */
  received(message: unknown): void {
    if (!isRecord(message) || (typeof message.id !== 'string' && typeof message.id !== 'number')) return;
    const first = this.listing.get(message.id);
    if (first === undefined) return;
    this.listing.delete(message.id);
    const tools = isRecord(message.result) ? message.result.tools : undefined;
    if (!Array.isArray(tools)) return;
    if (first) this.byTool = new Map();
    for (const tool of tools) {
      if (!isRecord(tool) || typeof tool.name !== 'string') continue;
      const mirrored = declared(tool.inputSchema, []);
      if (mirrored.length > 0) this.byTool.set(tool.name, mirrored);
      else this.byTool.delete(tool.name);
    }
  }

  /** The `Mcp-Param-*` headers of a posted message: only a `tools/call` of a tool that declares some has any. */
  headersFor(message: { method?: unknown; params?: unknown }): Array<[string, string]> {
    if (message.method !== 'tools/call' || !isRecord(message.params)) return [];
    const { name, arguments: args } = message.params;
    const mirrored = typeof name === 'string' ? this.byTool.get(name) : undefined;
    const out: Array<[string, string]> = [];
    for (const m of mirrored ?? []) {
      const text = headerText(valueAt(args, m.path));
      if (text !== undefined) out.push([`Mcp-Param-${m.header}`, encoded(text)]);
    }
    return out;
  }
}

/** The declarations of a schema, reached through `properties` alone (the only place the revision allows them). */
function declared(schema: unknown, path: string[]): Mirrored[] {
  if (!isRecord(schema)) return [];
  const out: Mirrored[] = [];
  const name = schema['x-mcp-header'];
  if (path.length > 0 && typeof name === 'string' && TOKEN.test(name)) out.push({ path, header: name });
  if (isRecord(schema.properties)) {
    for (const [key, child] of Object.entries(schema.properties))
      out.push(...declared(child, [...path, key]));
  }
  return out;
}

function valueAt(root: unknown, path: string[]): unknown {
  let node = root;
  for (const key of path) node = isRecord(node) ? node[key] : undefined;
  return node;
}

/** A primitive as its header says it; undefined (no header) for anything else, as the revision asks. */
function headerText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number' && Number.isFinite(value)) {
    return Number.isInteger(value) && !Number.isSafeInteger(value) ? undefined : String(value);
  }
  return undefined;
}

/**
 * Visible ASCII (tabs and inner spaces too) goes as it is; anything a header cannot hold as written — other bytes,
 * leading or trailing whitespace, nothing at all, or text that reads like the wrapper — as `=?base64?…?=` of UTF-8.
 */
function encoded(text: string): string {
  const plain = text !== '' && text === text.trim() && !SENTINEL.test(text) && /^[\t\x20-\x7e]*$/.test(text);
  return plain ? text : `=?base64?${Buffer.from(text, 'utf8').toString('base64')}?=`;
}
