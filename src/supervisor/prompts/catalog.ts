import type { MessageCut } from '../../framing/line-summary.js';
import type { McpConnection } from '../../protocol/connection.js';
import {
  type CacheHint,
  describeCut,
  endsShort,
  type ListingCut,
  mergeHint,
  pageCut,
} from '../../protocol/tool-listing.js';
import { exposedNameFor } from '../../registry/exposed-name.js';
import type { ExposedPrompt } from '../../registry/exposed-prompt.js';
import { type HeldName, settleNames } from '../../registry/name-claims.js';
import type { NoticeCode } from '../types.js';

/** Pages of `prompts/list` read from one server at most: a server that never stops paging is cut off. */
export const MAX_PROMPT_PAGES = 50;

export interface PromptsChange {
  server: string;
  added: string[];
  removed: string[];
}

/**
 * The fleet's prompts: each ready server's `prompts/list`, read when it becomes ready and again on its
 * `prompts/list_changed`, under names made as tools' names are (`exposedNameFor`). Routing is by the explicit
 * map from exposed name to (server, prompt), replaced whole on every change; names are never taken apart.
 */
export class PromptCatalog {
  /** What each ready server lists, under the names it would be exposed as. */
  private perServer = new Map<string, readonly ExposedPrompt[]>();
  /** The same, less the prompts held back for a name another server has (`settleNames`): what is exposed. */
  private exposed = new Map<string, ExposedPrompt[]>();
  private byName = new Map<string, ExposedPrompt>();
  /** Bumped on every refresh or drop, so an older listing still in flight is thrown away. */
  private readonly generation = new Map<string, number>();

  constructor(
    private order: readonly string[],
    private readonly separator: string,
    private readonly onChange: (change: PromptsChange) => void,
    private readonly onProblem: (server: string, message: string, code?: NoticeCode) => void,
    /** Servers with `namespace: false`: their prompts keep their own names. */
    private ownNames: ReadonlySet<string> = new Set(),
    /** Every settling's held-back prompts (all of them, each time). */
    private readonly onHeld: (held: HeldName[]) => void = () => {},
  ) {}

  /** Every prompt of every ready server, servers in config order. */
  list(): ExposedPrompt[] {
    return this.order.flatMap((id) => this.exposed.get(id) ?? []);
  }

  /** The prompt an exposed name routes to, if any. */
  get(name: string): ExposedPrompt | undefined {
    return this.byName.get(name);
  }

  /** Whether any ready server lists prompts. */
  has(server: string): boolean {
    return this.perServer.has(server);
  }

  /**
   * Reads a server's prompts again (it became ready, or said they changed); a server without prompts has none.
   * Resolves with the listing's cache hint once it is the server's list, or `false` when it is not (it failed, a
   * page arrived cut to the per-page cap while the server had a list already, or a newer listing took its place).
   */
  async refresh(
    server: string,
    conn: McpConnection,
    timeoutMs: number,
  ): Promise<{ hint?: CacheHint | undefined } | false> {
    const gen = this.bump(server);
    if (!conn.serverInit?.capabilities.prompts) {
      this.set(server, undefined);
      return {};
    }
    let listed: Record<string, unknown>[];
    let hint: CacheHint | undefined;
    let cut: ListingCut | undefined;
    try {
      ({ items: listed, hint, cut } = await listAll(conn, timeoutMs));
    } catch (err) {
      if (this.generation.get(server) !== gen) return false;
      this.onProblem(server, `prompts/list failed: ${err instanceof Error ? err.message : String(err)}`);
      return false;
    }
    if (this.generation.get(server) !== gen) return false;
    if (cut) {
      // A cut listing did not reach the end of the server's prompts: a re-list keeps the list it had, as tools do.
      const kept = this.perServer.has(server);
      const then = kept
        ? 'keeping the last good prompt list'
        : 'starting with the prompts of the pages taken';
      this.onProblem(server, `${describeCut(cut, 'prompts/list')}; ${then}`, 'LISTING_CUT');
      if (kept) return false;
    }
    const prompts: ExposedPrompt[] = [];
    const seen = new Set<string>();
    for (const p of listed) {
      if (typeof p.name !== 'string' || seen.has(p.name)) {
        this.onProblem(server, `prompt ${JSON.stringify(p.name)} is unnamed or listed twice; left out`);
        continue;
      }
      seen.add(p.name);
      const name = exposedNameFor(server, p.name, this.separator, !this.ownNames.has(server));
      prompts.push(Object.freeze({ name, server, prompt: p.name, definition: Object.freeze({ ...p }) }));
    }
    this.set(server, prompts);
    return { hint };
  }

  /** A reload's servers: one no longer configured drops out; the rest are exposed in the new order. */
  reconfigure(order: readonly string[], ownNames: ReadonlySet<string>): void {
    for (const id of [...this.perServer.keys()]) if (!order.includes(id)) this.drop(id);
    this.order = order;
    this.ownNames = ownNames;
  }

  /** Takes a server's prompts out (it is no longer ready). */
  drop(server: string): void {
    this.bump(server);
    this.set(server, undefined);
  }

  private bump(server: string): number {
    const gen = (this.generation.get(server) ?? 0) + 1;
    this.generation.set(server, gen);
    return gen;
  }

  private set(server: string, prompts: readonly ExposedPrompt[] | undefined): void {
    // A server without prompts that had none changes nothing: most servers, each time one becomes ready or stops.
    if (!prompts && !this.perServer.has(server)) return;
    const next = new Map(this.perServer);
    if (prompts) next.set(server, prompts);
    else next.delete(server);
    const { kept, held } = settleNames(next, this.order, 'prompt');
    const before = this.exposed;
    const byName = new Map<string, ExposedPrompt>();
    for (const list of kept.values()) for (const p of list) byName.set(p.name, p);
    this.perServer = next;
    this.exposed = kept;
    this.byName = byName;
    this.onHeld(held);
    // One server's change can let another's held-back prompt through (or hold one back): each says what changed.
    for (const id of this.order) {
      const was = before.get(id) ?? [];
      const now = kept.get(id) ?? [];
      // The same prompt objects in the same order: unchanged, without comparing their text.
      if (was.length === now.length && was.every((p, i) => p === now[i])) continue;
      const added = now.map((p) => p.name).filter((n) => !was.some((p) => p.name === n));
      const removed = was.map((p) => p.name).filter((n) => !now.some((p) => p.name === n));
      if (added.length || removed.length || JSON.stringify(was) !== JSON.stringify(now))
        this.onChange({ server: id, added, removed });
    }
  }
}

/**
 * Every page's prompts, and the pages' cache hint (the shortest ttl, `private` if any page is); `cut` when a page
 * arrived cut to the per-page cap (its prompts past the cap, and its cursor, left out), which ends the walk there.
 */
async function listAll(
  conn: McpConnection,
  timeoutMs: number,
): Promise<{ items: Record<string, unknown>[]; hint?: CacheHint | undefined; cut?: ListingCut }> {
  const items: Record<string, unknown>[] = [];
  let hint: CacheHint | undefined;
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PROMPT_PAGES; page++) {
    const arrived: { cut?: MessageCut } = {};
    const raw = (await conn.request('prompts/list', cursor === undefined ? {} : { cursor }, {
      timeoutMs,
      onCut: (c) => {
        arrived.cut = c;
      },
    })) as { prompts?: unknown; nextCursor?: unknown } | null;
    if (raw) hint = mergeHint(hint, raw);
    const prompts = Array.isArray(raw?.prompts) ? raw.prompts : [];
    for (const p of prompts)
      if (typeof p === 'object' && p !== null) items.push(p as Record<string, unknown>);
    if (endsShort(arrived.cut))
      return { items, hint, cut: pageCut(page + 1, Buffer.byteLength(JSON.stringify(items), 'utf8')) };
    if (typeof raw?.nextCursor !== 'string') break;
    cursor = raw.nextCursor;
  }
  return { items, hint };
}
