import { UriTemplate } from '@modelcontextprotocol/sdk/shared/uriTemplate.js';
import { isRecord } from '../../framing/is-record.js';
import type { MessageCut } from '../../framing/line-summary.js';
import type { McpConnection } from '../../protocol/connection.js';
import {
  type CacheHint,
  endsShort,
  type ListingCut,
  mergeHint,
  pageCut,
} from '../../protocol/tool-listing.js';

/** Bounds on what is read of one server's resource lists, so an endless listing costs a known amount. */
export const CATALOG_MAX_PAGES = 50;
export const CATALOG_MAX_ITEMS = 10_000;

/** What the fleet knows of one server's resources: the URIs it listed and its templates, for routing. */
export interface ServerCatalog {
  uris: Set<string>;
  templates: Array<{ uriTemplate: string; item: Record<string, unknown>; match: UriTemplate | undefined }>;
  /** The cache hints (MCP 2026-07-28) of each list's pages: the shortest ttl, `private` if any page is. */
  hints: { resources?: CacheHint | undefined; templates?: CacheHint | undefined };
  /** The lists whose walk a page cut to the per-page cap ended short: the catalog misses what came after. */
  cuts?: ListCut[];
}

/** A list of a server's catalog that did not reach its end, and where it stopped. */
export interface ListCut {
  method: 'resources/list' | 'resources/templates/list';
  cut: ListingCut;
}

/**
 * Every page of `method` (bounded), each item that has a string `key`; a failure ends the walk with what it had.
 * `hint` hears each page's cache hint merged with the ones before, `cut` of a page that arrived cut to the
 * per-page cap (its items past the cap, and its cursor, left out), which ends the walk there.
 */
export async function listAll(
  conn: McpConnection,
  method: 'resources/list' | 'resources/templates/list',
  field: 'resources' | 'resourceTemplates',
  key: 'uri' | 'uriTemplate',
  timeoutMs: number,
  hint?: (merged: CacheHint | undefined) => void,
  cut?: (cut: ListingCut) => void,
): Promise<Array<Record<string, unknown>>> {
  const items: Array<Record<string, unknown>> = [];
  let merged: CacheHint | undefined;
  let cursor: string | undefined;
  for (let page = 0; page < CATALOG_MAX_PAGES && items.length < CATALOG_MAX_ITEMS; page++) {
    let raw: unknown;
    const arrived: { cut?: MessageCut } = {};
    try {
      raw = await conn.request(method, cursor === undefined ? {} : { cursor }, {
        timeoutMs,
        onCut: (c) => {
          arrived.cut = c;
        },
      });
    } catch {
      break;
    }
    if (!isRecord(raw) || !Array.isArray(raw[field])) break;
    merged = mergeHint(merged, raw);
    hint?.(merged);
    for (const item of raw[field] as unknown[]) {
      if (isRecord(item) && typeof item[key] === 'string') items.push(item);
    }
    if (endsShort(arrived.cut)) {
      cut?.(pageCut(page + 1, Buffer.byteLength(JSON.stringify(items), 'utf8')));
      break;
    }
    const next = raw.nextCursor;
    if (typeof next !== 'string' || next === cursor) break;
    cursor = next;
  }
  return items.slice(0, CATALOG_MAX_ITEMS);
}

/** Reads a server's resources and templates for routing. */
export async function loadCatalog(conn: McpConnection, timeoutMs: number): Promise<ServerCatalog> {
  const hints: ServerCatalog['hints'] = {};
  const cuts: ListCut[] = [];
  const [resources, templates] = await Promise.all([
    listAll(
      conn,
      'resources/list',
      'resources',
      'uri',
      timeoutMs,
      (h) => {
        hints.resources = h;
      },
      (cut) => cuts.push({ method: 'resources/list', cut }),
    ),
    listAll(
      conn,
      'resources/templates/list',
      'resourceTemplates',
      'uriTemplate',
      timeoutMs,
      (h) => {
        hints.templates = h;
      },
      (cut) => cuts.push({ method: 'resources/templates/list', cut }),
    ),
  ]);
  return {
    hints,
    ...(cuts.length > 0 ? { cuts } : {}),
    uris: new Set(resources.map((r) => r.uri as string)),
    templates: templates.map((item) => ({
      uriTemplate: item.uriTemplate as string,
      item,
      match: templateOf(item.uriTemplate as string),
    })),
  };
}

/** Whether a URI is an expansion of one of the server's templates. */
export function matchesTemplate(catalog: ServerCatalog, uri: string): boolean {
  return catalog.templates.some((t) => t.match?.match(uri) != null);
}

function templateOf(template: string): UriTemplate | undefined {
  try {
    return new UriTemplate(template);
  } catch {
    // A template the matcher cannot read still lists; it just routes nothing.
    return undefined;
  }
}
