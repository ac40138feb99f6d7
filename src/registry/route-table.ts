import type { ExposedTool } from './exposed-tool.js';

const EMPTY: readonly ExposedTool[] = Object.freeze([]);

/**
 * An immutable snapshot of the fleet's tools and the explicit map from exposed name to (server, tool). The
 * supervisor replaces its whole table in one assignment, so a call is never routed against a half-updated map,
 * and a caller holding an old table keeps a consistent view. Routing is by this map, never by splitting names.
 */
export class RouteTable {
  /** The table with no tools. */
  static readonly empty: RouteTable = new RouteTable([], [], new Map(), new Map(), []);

  /** Every tool in fleet order: servers in `order`, each server's tools in its list order. */
  readonly tools: readonly ExposedTool[];
  /** The server order the table was built with (servers missing from `order` appended). */
  readonly order: readonly string[];
  /** Entries the table refused (a name already taken, a tool filed under another server), for the log. */
  readonly problems: readonly string[];
  readonly #byName: ReadonlyMap<string, ExposedTool>;
  readonly #byServer: ReadonlyMap<string, readonly ExposedTool[]>;

  private constructor(
    tools: readonly ExposedTool[],
    order: readonly string[],
    byName: ReadonlyMap<string, ExposedTool>,
    byServer: ReadonlyMap<string, readonly ExposedTool[]>,
    problems: readonly string[],
  ) {
    this.tools = Object.freeze(tools);
    this.order = Object.freeze(order);
    this.#byName = byName;
    this.#byServer = byServer;
    this.problems = Object.freeze(problems);
  }

  /**
   * Builds a table from each server's exposed tools. Tools are copied and frozen, so later changes to the
   * inputs never reach the table. A tool whose `server` is not its map key, or whose exposed name is already
   * taken earlier in fleet order, is left out with a problem line (the first holder of a name keeps it).
   */
  static build(perServer: ReadonlyMap<string, readonly ExposedTool[]>, order: readonly string[]): RouteTable {
    const servers = [...new Set([...order, ...perServer.keys()])];
    const tools: ExposedTool[] = [];
    const byName = new Map<string, ExposedTool>();
    const byServer = new Map<string, readonly ExposedTool[]>();
    const problems: string[] = [];
    for (const server of servers) {
      const own: ExposedTool[] = [];
      for (const input of perServer.get(server) ?? []) {
        if (input.server !== server) {
          problems.push(
            `tool ${JSON.stringify(input.name)} names server ${input.server} but is filed under ${server}; left out`,
          );
          continue;
        }
        const holder = byName.get(input.name);
        if (holder !== undefined) {
          problems.push(
            `tool name ${JSON.stringify(input.name)} of server ${server} is already taken by server ${holder.server} (tool ${JSON.stringify(holder.tool)}); left out`,
          );
          continue;
        }
        const tool = deepFreeze(structuredClone(input));
        byName.set(tool.name, tool);
        own.push(tool);
        tools.push(tool);
      }
      byServer.set(server, Object.freeze(own));
    }
    return new RouteTable(tools, servers, byName, byServer, problems);
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

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
