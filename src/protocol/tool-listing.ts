import { MAX_JSON_DEPTH, nestedDeeperThan } from '../framing/json-depth.js';
import { LIST_PAGE_MAX_BYTES, type MessageCut } from '../framing/line-summary.js';
import type { DiscoveredTool } from '../registry/server-tools.js';
import type { McpConnection } from './connection.js';
import { SupervisorError } from './errors.js';

/** How far one `tools/list` pagination may go: all pages together, and the whole of it in time. */
export interface ListingBounds {
  timeoutMs: number;
  maxBytes: number;
  maxPages: number;
}

/**
 * Which bound a listing hit, with how far it got: data, rendered for people only at the edge. `page` is a page
 * that arrived cut to the per-page cap (LIST_PAGE_MAX_BYTES of items): its cursor went with the tools past the
 * cap, so the listing ends there, short of its end.
 */
export interface ListingCut {
  bound: 'bytes' | 'pages' | 'time' | 'page';
  /** The bound's value: bytes, pages or ms; for `page`, the per-page cap in bytes. */
  limit: number;
  /** Pages taken (whole ones, and for `page` the cut one too), and their bytes as JSON. */
  pages: number;
  bytes: number;
}

/** A list result's cache hints (MCP 2026-07-28): how long it stays fresh, and who may keep a copy. */
export interface CacheHint {
  ttlMs: number;
  cacheScope: 'public' | 'private';
}

/** The tools of every page taken, the cut when the listing did not reach its end, and the pages' cache hint. */
export interface Listing {
  tools: DiscoveredTool[];
  cut?: ListingCut;
  /**
   * Tools left out because their definition nests deeper than MAX_JSON_DEPTH (by name, as listed): nothing could
   * hash, check or pass one on, and the server's other tools are not to be lost to it.
   */
  refused?: string[];
  /** The shortest ttl of the pages, `private` if any page was; absent when no page gave one. */
  hint?: CacheHint;
}

interface Page {
  tools?: unknown;
  nextCursor?: unknown;
  ttlMs?: unknown;
  cacheScope?: unknown;
}

/** The hint of a listing so far and one more page: the page's ttl counts only when it is a whole ms figure ≥ 0. */
export function mergeHint(hint: CacheHint | undefined, page: Page): CacheHint | undefined {
  const { ttlMs, cacheScope } = page;
  if (typeof ttlMs !== 'number' || !Number.isSafeInteger(ttlMs) || ttlMs < 0) return hint;
  const scope = cacheScope === 'public' ? 'public' : 'private';
  if (!hint) return { ttlMs, cacheScope: scope };
  return {
    ttlMs: Math.min(hint.ttlMs, ttlMs),
    cacheScope: hint.cacheScope === 'private' || scope === 'private' ? 'private' : 'public',
  };
}

/**
 * Lists tools following `nextCursor`, within `bounds`. A listing that would pass a bound stops before the page
 * that passes it (bytes), at the bound (pages, time), or after a page that arrived cut to its cap (page: what the
 * page kept is taken), and says so in `cut`; the caller decides whether a cut listing is used. Rejects with a
 * SupervisorError/RemoteError for a broken answer or a dead server.
 */
export async function listTools(conn: McpConnection, bounds: ListingBounds): Promise<Listing> {
  const tools: DiscoveredTool[] = [];
  const seen = new Set<string>();
  // On the connection's clock, as each page's own deadline is: a page cut short by the listing's time is told apart.
  const clock = conn.clock;
  const deadline = clock.now() + bounds.timeoutMs;
  let cursor: string | undefined;
  let bytes = 0;
  let hint: CacheHint | undefined;
  const refused: string[] = [];
  const done = (extra: Partial<Listing>): Listing => ({
    tools,
    ...extra,
    ...(hint ? { hint } : {}),
    ...(refused.length > 0 ? { refused } : {}),
  });
  for (let pages = 0; ; pages++) {
    const cut = (bound: ListingCut['bound'], limit: number): Listing =>
      done({ cut: { bound, limit, pages, bytes } });
    if (pages >= bounds.maxPages) return cut('pages', bounds.maxPages);
    const left = Math.ceil(deadline - clock.now());
    if (left <= 0) return cut('time', bounds.timeoutMs);
    let result: Page | null;
    const arrived: { cut?: MessageCut } = {};
    try {
      result = (await conn.request('tools/list', cursor === undefined ? {} : { cursor }, {
        timeoutMs: left,
        onCut: (c) => {
          arrived.cut = c;
        },
      })) as Page | null;
    } catch (err) {
      // A page that timed out only because the listing's time ran out is the time bound, not a broken server.
      if (err instanceof SupervisorError && err.code === 'REQUEST_TIMEOUT' && clock.now() >= deadline - 1)
        return cut('time', bounds.timeoutMs);
      throw err;
    }
    if (!result || !Array.isArray(result.tools)) {
      throw new SupervisorError('INVALID_RESPONSE', 'tools/list answered without a tools array');
    }
    const page = result.tools.filter((t: unknown) => {
      if (!nestedDeeperThan(t, MAX_JSON_DEPTH)) return true;
      const name = (t as { name?: unknown }).name;
      refused.push(typeof name === 'string' ? name : '');
      return false;
    });
    // What the page costs to hold: its tools as JSON (the line itself is gone by now).
    const size = Buffer.byteLength(JSON.stringify(page), 'utf8');
    if (bytes + size > bounds.maxBytes) return cut('bytes', bounds.maxBytes);
    bytes += size;
    hint = mergeHint(hint, result);
    for (const t of page) {
      if (typeof t === 'object' && t !== null && typeof (t as DiscoveredTool).name === 'string')
        tools.push(t as DiscoveredTool);
    }
    if (endsShort(arrived.cut)) return done({ cut: pageCut(pages + 1, bytes) });
    if (typeof result.nextCursor !== 'string' || result.nextCursor === '') return done({});
    // A server that hands back a cursor it already gave would page forever.
    if (seen.has(result.nextCursor))
      throw new SupervisorError('INVALID_RESPONSE', 'tools/list repeated a cursor');
    seen.add(result.nextCursor);
    cursor = result.nextCursor;
  }
}

/**
 * Whether a page that arrived cut to its caps lost items or its cursor: either way the listing ends short. Every
 * paged list (tools, prompts, resources, templates) reads it from its request's `onCut`.
 */
export function endsShort(cut: MessageCut | undefined): boolean {
  return cut?.kind === 'list' && (cut.kept < cut.total || cut.dropped.includes('nextCursor'));
}

const MiB = 1024 * 1024;

const bytesOf = (n: number) => (n % MiB === 0 ? `${n / MiB} MiB` : `${n} bytes`);

/** The cut of a listing whose page `pages` arrived cut to the per-page cap, `bytes` taken in all. */
export function pageCut(pages: number, bytes: number): ListingCut {
  return { bound: 'page', limit: LIST_PAGE_MAX_BYTES, pages, bytes };
}

/** The sentence a notice carries for a cut listing of `method` (`tools/list` unless said). */
export function describeCut(cut: ListingCut, method = 'tools/list'): string {
  if (cut.bound === 'page')
    return `${method} stopped at page ${cut.pages}, cut to the page cap of ${bytesOf(cut.limit)}`;
  const what =
    cut.bound === 'bytes'
      ? `its bound of ${bytesOf(cut.limit)}`
      : cut.bound === 'pages'
        ? `its bound of ${cut.limit} pages`
        : `the call timeout of ${cut.limit} ms`;
  return `${method} stopped at ${what} (after ${cut.pages} pages)`;
}
