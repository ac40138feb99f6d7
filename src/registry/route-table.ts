import type { ExposedTool } from './exposed-tool.js';
import { type HeldName, settleNames } from './name-claims.js';

const EMPTY: readonly ExposedTool[] = Object.freeze([]);

/**
 * An immutable snapshot of the fleet's tools and the explicit map from exposed name to (server, tool). The
 * supervisor replaces its whole table in one assignment, so a call is never routed against a half-updated map,
 * and a caller holding an old table keeps a consistent view. Routing is by this map, never by splitting names.
 */
export class RouteTable {
  /** The table with no tools. */
  static readonly empty: RouteTable = new RouteTable([], [], new Map(), new Map(), [], []);

  /** Every tool in fleet order: servers in `order`, each server's tools in its list order. */
  readonly tools: readonly ExposedTool[];
  /** The server order the table was built with (servers missing from `order` appended). */
  readonly order: readonly string[];
  /** Entries the table refused (a tool filed under another server), for the log. */
  readonly problems: readonly string[];
  /** Tools left out because a server earlier in fleet order offers the same exposed name (reported as data). */
  readonly held: readonly HeldName[];
  readonly #byName: ReadonlyMap<string, ExposedTool>;
  readonly #byServer: ReadonlyMap<string, readonly ExposedTool[]>;

  private constructor(
    tools: readonly ExposedTool[],
    order: readonly string[],
    byName: ReadonlyMap<string, ExposedTool>,
    byServer: ReadonlyMap<string, readonly ExposedTool[]>,
    problems: readonly string[],
    held: readonly HeldName[],
  ) {
    this.tools = Object.freeze(tools);
    this.order = Object.freeze(order);
    this.#byName = byName;
    this.#byServer = byServer;
    this.problems = Object.freeze(problems);
    this.held = Object.freeze(held);
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
    const tools: ExposedTool[] = [];
    const byName = new Map<string, ExposedTool>();
    const byServer = new Map<string, readonly ExposedTool[]>();
    for (const server of servers) {
      const own = (kept.get(server) ?? []).map(sealTool);
      for (const tool of own) byName.set(tool.name, tool);
      tools.push(...own);
      byServer.set(server, Object.freeze(own));
    }
    return new RouteTable(tools, servers, byName, byServer, problems, held);
  }

  /**
   * The table `prev` with one server's tools replaced, made without settling every name again — or undefined
   * when that could change another server's share (a name of the new list another server holds, any name held
   * back now, a duplicate, a tool filed under another server, another order): then `build` decides. The result is
   * the table `build` would make from the same lists; it costs copies of the name map and the flat list, not a
   * pass over every tool, which is what a thousand servers becoming ready one after another need.
   */
  static replace(
    prev: RouteTable,
    server: string,
    tools: readonly ExposedTool[],
    order: readonly string[],
  ): RouteTable | undefined {
    if (prev.held.length > 0 || prev.problems.length > 0) return undefined;
    if (prev.order.length !== order.length || prev.order.some((id, i) => id !== order[i])) return undefined;
    if (!prev.#byServer.has(server) && !order.includes(server)) return undefined;
    const names = new Set<string>();
    for (const t of tools) {
      if (t.server !== server || names.has(t.name)) return undefined;
      const holder = prev.#byName.get(t.name);
      if (holder !== undefined && holder.server !== server) return undefined;
      names.add(t.name);
    }
    const own = Object.freeze(tools.map(sealTool));
    const byName = new Map(prev.#byName);
    for (const t of prev.listFor(server)) byName.delete(t.name);
    for (const t of own) byName.set(t.name, t);
    const byServer = new Map(prev.#byServer);
    byServer.set(server, own);
    const flat: ExposedTool[] = [];
    for (const id of prev.order) flat.push(...(byServer.get(id) ?? EMPTY));
    return new RouteTable(flat, prev.order, byName, byServer, [], []);
  }

  /** The tool an exposed name routes to (its `server` and `tool` as the server names it), if any. */
  get(name: string): ExposedTool | undefined {
    return this.#byName.get(name);
  }

  /** Whether an exposed name routes anywhere. */
  has(name: string): boolean {
    return this.#byName.has(name);
  }

  /** One server's tools in its list order (empty for an unknown server or one with no tools). */
  listFor(serverId: string): readonly ExposedTool[] {
    return this.#byServer.get(serverId) ?? EMPTY;
  }

  /** How many tools the fleet exposes. */
  get size(): number {
    return this.tools.length;
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
  const sealed = deepFreeze(structuredClone(tool));
  SEALED.add(sealed);
  return sealed;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
