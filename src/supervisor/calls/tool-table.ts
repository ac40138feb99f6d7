import type { ServerConfig, SupervisorConfig } from '../../config/types.js';
import { type ServerSnapshot, serverStateOf } from '../../machines/server.machine.js';
import { RouteTable, sealTool } from '../../registry/route-table.js';
import { type DiscoveredTool, resolveServerTools } from '../../registry/server-tools.js';
import { diffTools } from '../../registry/tool-diff.js';
import { toolOwner } from '../../registry/tool-owner.js';
import { HeldNotices } from '../held-notices.js';
import type { SupervisorLogger } from '../logger.js';
import type { ExposedTool, SupervisorEvent } from '../types.js';

type ToolsEvent = Omit<Extract<SupervisorEvent, { type: 'tools' }>, 'at'>;
type NoticeEvent = Omit<Extract<SupervisorEvent, { type: 'notice' }>, 'at'>;

/**
 * The fleet's one tool namespace: each ready server's live list resolved into exposed tools, swapped into a new
 * RouteTable in one assignment whenever any server's list changes, with a `tools` event for the difference.
 */
export class FleetTools {
  /** The current routing snapshot; replaced whole, never mutated. */
  table: RouteTable = RouteTable.empty;
  private readonly perServer = new Map<string, ExposedTool[]>();
  private readonly seenList = new Map<string, unknown>();
  /** Every exposed name some server has listed, with that server: a restart keeps calls waiting for it. */
  private readonly seenNames = new Map<string, string>();
  private readonly reported = new Set<string>();
  private order: string[];
  private servers: Map<string, ServerConfig>;
  private readonly held: HeldNotices;
  /** The fleet is stopping for good: every tool left at once, and no server's tools come back. */
  private closed = false;

  constructor(
    private config: SupervisorConfig,
    private readonly emit: (e: ToolsEvent | NoticeEvent) => void,
    private readonly logger?: SupervisorLogger,
  ) {
    this.order = config.servers.map((s) => s.id);
    this.servers = new Map(config.servers.map((s) => [s.id, s]));
    this.held = new HeldNotices(emit);
  }

  /** Re-resolves a server's tools from its latest snapshot; only a ready server exposes tools. */
  update(id: string, snap: ServerSnapshot): void {
    this.apply(id, serverStateOf(snap), snap.context.tools);
  }

  /**
   * Re-resolves a server's tools from its state and its latest listing. A ready server exposes what it lists (a
   * list seen before is not resolved again); a wedged one keeps its tools (calls wait for it); any other state
   * takes them out of the table.
   */
  apply(id: string, state: string, list: readonly unknown[]): void {
    const server = this.servers.get(id);
    if (!server || this.closed) return;
    if (state === 'ready') {
      if (this.seenList.get(id) === list) return;
      this.seenList.set(id, list);
      const resolved = resolveServerTools({
        serverId: id,
        separator: this.config.supervisor.separator,
        discovered: list as DiscoveredTool[],
        declared: server.tools,
        scopesRequired: server.scopesRequired,
        namespaced: server.namespace !== false,
      });
      for (const p of resolved.problems) this.logger?.warn?.(p);
      for (const name of resolved.missingDeclared) {
        const key = `${id}\0${name}`;
        if (this.reported.has(key)) continue;
        this.reported.add(key);
        this.emit({
          type: 'notice',
          server: id,
          message: `declared tool '${name}' is not offered by the server`,
        });
      }
      this.swap(id, resolved.tools);
    } else if (this.perServer.has(id) && state !== 'wedged') {
      this.seenList.delete(id);
      this.swap(id, undefined);
    }
  }

  /**
   * Takes a reloaded config: a server it no longer has leaves the table (and the names it was known by), a changed
   * one is resolved afresh at its next listing, and the table follows the new order.
   */
  reconfigure(config: SupervisorConfig, changed: readonly string[]): void {
    const next = new Map(config.servers.map((s) => [s.id, s]));
    for (const id of [...this.perServer.keys()]) if (!next.has(id)) this.swap(id, undefined);
    for (const [name, server] of [...this.seenNames]) if (!next.has(server)) this.seenNames.delete(name);
    for (const id of [...this.seenList.keys()])
      if (!next.has(id) || changed.includes(id)) this.seenList.delete(id);
    this.config = config;
    this.servers = next;
    this.order = config.servers.map((s) => s.id);
    this.table = RouteTable.build(this.perServer, this.order);
  }

  /**
   * The fleet stops: every server's tools leave the table in one step (one `tools` event per server that had
   * any), rather than one rebuild of the whole table per server as each stops. Idempotent.
   */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    const before = this.table;
    this.perServer.clear();
    this.seenList.clear();
    this.table = RouteTable.empty;
    this.held.update('tool', []);
    for (const server of this.order) {
      const was = before.listFor(server);
      if (was.length > 0) this.emit({ type: 'tools', server, ...diffTools(was, []) });
    }
  }

  /** How many tools a server exposes now. */
  countFor(id: string): number {
    return this.table.listFor(id).length;
  }

  /**
   * Which server a call by this name should wait for: the live map first, then names this fleet has exposed
   * before (the server is restarting), then what the config alone says ({@link toolOwner}: declared tools, then
   * the name's own shape), so a name no server has listed yet gets the answer `mcp-supervisor call` gets.
   */
  serverFor(name: string): string | undefined {
    return this.table.get(name)?.server ?? this.seenNames.get(name) ?? toolOwner(this.config, name);
  }

  private swap(id: string, tools: ExposedTool[] | undefined): void {
    const before = this.table;
    // sealed once here, so every rebuild below reuses them instead of copying every server's tools again
    const sealed = tools?.map(sealTool);
    if (sealed) this.perServer.set(id, sealed);
    else this.perServer.delete(id);
    // One server's list swapped in place when no other server's share can move; else every name is settled again.
    const replaced = RouteTable.replace(before, id, sealed ?? [], this.order);
    const next = replaced ?? RouteTable.build(this.perServer, this.order);
    for (const p of next.problems) this.logger?.warn?.(p);
    this.table = next;
    this.held.update('tool', next.held);
    // One server's change can let another's held-back tool through (or hold one back): each says what it gained.
    // Replaced in place, only this server's list can have moved; else a list made of the very tools it had is
    // unchanged (tools are sealed once and reused), so only the lists that changed are compared and recorded.
    for (const server of replaced ? [id] : this.order) {
      const was = before.listFor(server);
      const now = next.listFor(server);
      if (sameTools(was, now)) continue;
      for (const t of now) this.seenNames.set(t.name, t.server);
      const diff = diffTools(was, now);
      if (diff.added.length || diff.removed.length || diff.changed.length)
        this.emit({ type: 'tools', server, ...diff });
    }
  }
}

/** Whether two lists hold the same tool objects in the same order. */
function sameTools(a: readonly ExposedTool[], b: readonly ExposedTool[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
