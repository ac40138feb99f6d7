import type { ExposedTool } from './exposed-tool.js';
import { type HeldName, settleNames } from './name-claims.js';

const EMPTY: readonly ExposedTool[] = Object.freeze([]);

/**
 * How many servers' replaced lists a table keeps on top of its maps before they are merged into one level: a
 * lookup looks through at most this many, and a fleet of N servers becoming ready one after another merges N /
 * this many times, not N.
 */
const MAX_LAYERS = 16;

/** One server's list replaced on top of a table's maps. */
interface Layer {
  readonly server: string;
  readonly own: readonly ExposedTool[];
  readonly names: ReadonlyMap<string, ExposedTool>;
}

/** Maps from name and from server, for the servers in `own`: a table's base, or the level merged above it. */
interface Level {
  readonly names: ReadonlyMap<string, ExposedTool>;
  readonly own: ReadonlyMap<string, readonly ExposedTool[]>;
}

const NO_LEVEL: Level = { names: new Map(), own: new Map() };

/**
 * `level` with each of `lists`' servers' lists replaced by the one given. Every replaced list leaves before any
 * new one comes in: a name may have moved between two of the servers.
 */
function merge(level: Level, lists: ReadonlyMap<string, readonly ExposedTool[]>): Level {
  const names = new Map(level.names);
  const own = new Map(level.own);
  for (const server of lists.keys()) for (const t of level.own.get(server) ?? EMPTY) names.delete(t.name);
  for (const [server, list] of lists) {
    for (const t of list) names.set(t.name, t);
    own.set(server, list);
  }
  return { names, own };
}

/**
 * An immutable snapshot of the fleet's tools and the explicit map from exposed name to (server, tool). The
 * supervisor replaces its whole table in one assignment, so a call is never routed against a half-updated map,
 * and a caller holding an old table keeps a consistent view. Routing is by this map, never by splitting names.
 */
export class RouteTable {
  /** The table with no tools. */
  static readonly empty: RouteTable = RouteTable.full(new Map(), new Map(), [], [], []);

  /** The server order the table was built with (servers missing from `order` appended). */
  readonly order: readonly string[];
  /** Entries the table refused (a tool filed under another server), for the log. */
  readonly problems: readonly string[];
  /** Tools left out because a server earlier in fleet order offers the same exposed name (reported as data). */
  readonly held: readonly HeldName[];
  /** How many tools the fleet exposes. */
  readonly size: number;
  /**
   * The full maps, then a level of servers whose lists replace theirs in the base (merged from layers, and folded
   * into the base once it holds more tools than the base: so the base is copied a logarithmic number of times as
   * a fleet grows, and the level at most as often as layers are merged), then the layers, each server at most once.
   */
  readonly #base: Level;
  readonly #mid: Level | undefined;
  readonly #layers: readonly Layer[];
  #tools: readonly ExposedTool[] | undefined;

  private constructor(
    order: readonly string[],
    base: Level,
    mid: Level | undefined,
    layers: readonly Layer[],
    size: number,
    problems: readonly string[],
    held: readonly HeldName[],
  ) {
    this.order = Object.freeze(order);
    this.#base = base;
    this.#mid = mid;
    this.#layers = layers;
    this.size = size;
    this.problems = Object.freeze(problems);
    this.held = Object.freeze(held);
  }

  private static full(
    byName: ReadonlyMap<string, ExposedTool>,
    byServer: ReadonlyMap<string, readonly ExposedTool[]>,
    order: readonly string[],
    problems: readonly string[],
    held: readonly HeldName[],
  ): RouteTable {
    return new RouteTable(
      order,
      { names: byName, own: byServer },
      undefined,
      [],
      byName.size,
      problems,
      held,
    );
  }

  /**
   * Builds a table from each server's exposed tools. Tools are copied and frozen, so later changes to the
   * inputs never reach the table. A tool whose `server` is not its map key is left out with a problem line; a
   * name two servers offer goes to the first in fleet order (`settleNames`), the other's tool is left out and
   * listed in `held`.
   */
  static build(perServer: ReadonlyMap<string, readonly ExposedTool[]>, order: readonly string[]): RouteTable {
    const servers = [...new Set([...order, ...perServer.keys()])];
    const problems: string[] = [];
    const filed = new Map<string, ExposedTool[]>();
    for (const server of servers) {
      const own: ExposedTool[] = [];
      for (const input of perServer.get(server) ?? []) {
        if (input.server === server) own.push(input);
        else
          problems.push(
            `tool ${JSON.stringify(input.name)} names server ${input.server} but is filed under ${server}; left out`,
          );
      }
      filed.set(server, own);
    }
    const { kept, held } = settleNames(filed, servers, 'tool');
    const byName = new Map<string, ExposedTool>();
    const byServer = new Map<string, readonly ExposedTool[]>();
    for (const server of servers) {
      const own = (kept.get(server) ?? []).map(sealTool);
      for (const tool of own) byName.set(tool.name, tool);
      byServer.set(server, Object.freeze(own));
    }
    return RouteTable.full(byName, byServer, servers, problems, held);
  }

  /**
   * The table `prev` with one server's tools replaced, made without settling every name again — or undefined
   * when that could change another server's share (a name of the new list another server holds, any name held
   * back now, a duplicate, a tool filed under another server, another order): then `build` decides. The result is
   * the table `build` would make from the same lists. It costs the new list, not the fleet: the list goes on top
   * of `prev`'s maps; every {@link MAX_LAYERS} replacements the lists on top are merged into one level, and that
   * level into the full maps only once it holds more tools than they do — what a thousand servers becoming ready
   * one after another need.
   */
  static replace(
    prev: RouteTable,
    server: string,
    tools: readonly ExposedTool[],
    order: readonly string[],
  ): RouteTable | undefined {
    if (prev.held.length > 0 || prev.problems.length > 0) return undefined;
    if (prev.order.length !== order.length || prev.order.some((id, i) => id !== order[i])) return undefined;
    if (!prev.#base.own.has(server) && !order.includes(server)) return undefined;
    const names = new Map<string, ExposedTool>();
    for (const t of tools) {
      if (t.server !== server || names.has(t.name)) return undefined;
      const holder = prev.get(t.name);
      if (holder !== undefined && holder.server !== server) return undefined;
      names.set(t.name, t);
    }
    const own = Object.freeze(tools.map(sealTool));
    for (const t of own) names.set(t.name, t);
    const layers = [...prev.#layers.filter((l) => l.server !== server), { server, own, names }];
    const size = prev.size - prev.listFor(server).length + own.length;
    if (layers.length <= MAX_LAYERS)
      return new RouteTable(prev.order, prev.#base, prev.#mid, layers, size, [], []);
    const mid = merge(prev.#mid ?? NO_LEVEL, new Map(layers.map((l) => [l.server, l.own])));
    if (mid.names.size <= prev.#base.names.size)
      return new RouteTable(prev.order, prev.#base, mid, [], size, [], []);
    const base = merge(prev.#base, mid.own);
    return RouteTable.full(base.names, base.own, prev.order, [], []);
  }

  /** Every tool in fleet order: servers in `order`, each server's tools in its list order. */
  get tools(): readonly ExposedTool[] {
    if (this.#tools) return this.#tools;
    const flat: ExposedTool[] = [];
    for (const id of this.order) flat.push(...this.listFor(id));
    this.#tools = Object.freeze(flat);
    return this.#tools;
  }

  /** The tool an exposed name routes to (its `server` and `tool` as the server names it), if any. */
  get(name: string): ExposedTool | undefined {
    for (const layer of this.#layers) {
      const tool = layer.names.get(name);
      if (tool) return tool;
    }
    const replaced = (server: string) => this.#layers.some((l) => l.server === server);
    const mid = this.#mid?.names.get(name);
    if (mid) return replaced(mid.server) ? undefined : mid;
    const tool = this.#base.names.get(name);
    if (tool && (replaced(tool.server) || this.#mid?.own.has(tool.server))) return undefined;
    return tool;
  }

  /** Whether an exposed name routes anywhere. */
  has(name: string): boolean {
    return this.get(name) !== undefined;
  }

  /** One server's tools in its list order (empty for an unknown server or one with no tools). */
  listFor(serverId: string): readonly ExposedTool[] {
    for (const layer of this.#layers) if (layer.server === serverId) return layer.own;
    return this.#mid?.own.get(serverId) ?? this.#base.own.get(serverId) ?? EMPTY;
  }

  /** A new table with one server's tools replaced (`[]` to clear them); this table is left as it is. */
  withServer(serverId: string, tools: readonly ExposedTool[]): RouteTable {
    const perServer = new Map(this.order.map((id) => [id, this.listFor(id)]));
    perServer.set(serverId, tools);
    return RouteTable.build(perServer, this.order);
  }
}

/** Tools {@link sealTool} made: deep-frozen copies nothing can change, so a table may hold them as they are. */
const SEALED = new WeakSet<ExposedTool>();

/**
 * A deep-frozen copy of a tool, made once: a tool this returned before is returned as it is. A fleet that
 * rebuilds its table on every server's change copies and freezes only the tools that changed, not every tool of
 * every server each time (which made starting or stopping hundreds of servers quadratic).
 */
export function sealTool(tool: ExposedTool): ExposedTool {
  if (SEALED.has(tool)) return tool;
  const sealed = deepFreeze(copyData(tool, new Map()) ?? structuredClone(tool));
  SEALED.add(sealed);
  return sealed;
}

/**
 * A copy of plain data (what JSON.parse makes), keeping values shared within it shared, as structuredClone does
 * at a fraction of its cost — every tool of every server is copied at start. Undefined for anything else (a
 * Date, a function), which structuredClone then copies or refuses as it always did.
 */
function copyData<T>(value: T, seen: Map<object, unknown>): T | undefined {
  if (typeof value !== 'object' || value === null)
    return typeof value === 'function' || typeof value === 'symbol' ? undefined : value;
  const known = seen.get(value);
  if (known !== undefined) return known as T;
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    seen.set(value, out);
    for (const item of value) {
      const copy = copyData(item, seen);
      if (copy === undefined && item !== undefined) return undefined;
      out.push(copy);
    }
    return out as T;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return undefined;
  const out: Record<string, unknown> = {};
  seen.set(value, out);
  for (const key of Object.keys(value)) {
    const item = (value as Record<string, unknown>)[key];
    const copy = copyData(item, seen);
    if (copy === undefined && item !== undefined) return undefined;
    // A `__proto__` key JSON.parse made is data: defined, so it stays an own key and sets no prototype.
    if (key === '__proto__')
      Object.defineProperty(out, key, { value: copy, enumerable: true, writable: true, configurable: true });
    else out[key] = copy;
  }
  return out as T;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
