import type { ServerConfig, SupervisorConfig } from '../config/types.js';
import { type ServerSnapshot, serverStateOf } from '../machines/server.machine.js';
import { exposedName } from '../registry/exposed-name.js';
import { RouteTable } from '../registry/route-table.js';
import { type DiscoveredTool, resolveServerTools } from '../registry/server-tools.js';
import { diffTools } from '../registry/tool-diff.js';
import type { SupervisorLogger } from './supervisor.js';
import type { ExposedTool, SupervisorEvent } from './types.js';

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
  private readonly known = new Map<string, string>();
  private readonly reported = new Set<string>();
  private readonly order: string[];
  private readonly servers: Map<string, ServerConfig>;

  constructor(
    private readonly config: SupervisorConfig,
    private readonly emit: (e: ToolsEvent | NoticeEvent) => void,
    private readonly logger?: SupervisorLogger,
  ) {
    this.order = config.servers.map((s) => s.id);
    this.servers = new Map(config.servers.map((s) => [s.id, s]));
    for (const s of config.servers) {
      for (const t of s.tools) this.known.set(safeName(s.id, t.name, config.supervisor.separator), s.id);
    }
  }

  /** Re-resolves a server's tools from its latest snapshot; only a ready server exposes tools. */
  update(id: string, snap: ServerSnapshot): void {
    const server = this.servers.get(id);
    if (!server) return;
    const state = serverStateOf(snap);
    if (state === 'ready') {
      const list = snap.context.tools;
      if (this.seenList.get(id) === list) return;
      this.seenList.set(id, list);
      const resolved = resolveServerTools({
        serverId: id,
        separator: this.config.supervisor.separator,
        discovered: list as DiscoveredTool[],
        declared: server.tools,
        scopesRequired: server.scopesRequired,
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

  /** How many tools a server exposes now. */
  countFor(id: string): number {
    return this.table.listFor(id).length;
  }

  /**
   * Which server a call by this name should wait for: the live map first, then names seen before (the server is
   * restarting), then declared tools, then the longest server id that prefixes the name.
   */
  serverFor(name: string): string | undefined {
    const live = this.table.get(name);
    if (live) return live.server;
    const known = this.known.get(name);
    if (known) return known;
    let best: string | undefined;
    for (const id of this.order) {
      if (name.startsWith(id + this.config.supervisor.separator) && (!best || id.length > best.length))
        best = id;
    }
    return best;
  }

  private swap(id: string, tools: ExposedTool[] | undefined): void {
    const before = this.table.listFor(id);
    if (tools) this.perServer.set(id, tools);
    else this.perServer.delete(id);
    const next = RouteTable.build(this.perServer, this.order);
    for (const p of next.problems) this.logger?.warn?.(p);
    this.table = next;
    for (const t of next.listFor(id)) this.known.set(t.name, id);
    const diff = diffTools(before, next.listFor(id));
    if (diff.added.length || diff.removed.length || diff.changed.length)
      this.emit({ type: 'tools', server: id, ...diff });
  }
}

function safeName(serverId: string, tool: string, separator: string): string {
  try {
    return exposedName(serverId, tool, separator);
  } catch {
    return `${serverId}${separator}${tool}`;
  }
}
