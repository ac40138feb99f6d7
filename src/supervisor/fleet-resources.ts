import type { ServerConfig } from '../config/types.js';
import { isRecord } from '../framing/is-record.js';
import type { ConnectionEvent, McpConnection } from '../protocol/connection.js';
import type { HeldName } from '../registry/name-claims.js';
import { clampTimeout } from './call-input.js';
import { rememberHanded, routeChanged } from './input-route-check.js';
import { InputRoutes } from './input-routes.js';
import { type CacheHint, ListHints, ListTimers } from './list-hints.js';
import { type ListenOutcome, ListenStreams } from './listen-streams.js';
import { checkPromptInput, type HostInput, type InputOptions } from './prompt-input.js';
import { decodeCursor, encodeCursor } from './resource-cursor.js';
import {
  type FleetResource,
  type ResourceFailure,
  type ResourceListOutcome,
  type ResourceReadOutcome,
  type ResourceSubscribeOutcome,
  type ResourceTemplatesOutcome,
  type ResourceUpdate,
  resourceFailure,
  resourceFailureFromError,
} from './resource-outcome.js';
import { readResourceAt } from './resource-read.js';
import { ResourceRoutes } from './resource-routes.js';
import { ResourceSubscriptions } from './resource-subscriptions.js';
import { loadCatalog } from './server-resources.js';
import type { SupervisorClock } from './supervisor-options.js';
import type { ServerState } from './types.js';

export interface FleetResourcesDeps {
  servers: readonly ServerConfig[];
  connection: (id: string) => McpConnection | undefined;
  /** Resolves true once the server is ready, false if it went down or `timeoutMs` passed. */
  ready: (id: string, timeoutMs: number) => Promise<boolean>;
  stopped: () => boolean;
  /** A server's resources came, went or changed. */
  changed: (server: string) => void;
  warn: (message: string) => void;
  /** Every URI and template of a `namespace: false` server held back now (all of them, after each change). */
  held?: (names: HeldName[]) => void;
  /** Who answers a read's input rounds (the host's `onInputRequired`) and what it declares. */
  input?: HostInput;
  /** The host's clock, when it gave one: a resource list's ttl runs on it. */
  clock?: SupervisorClock | undefined;
}

/**
 * The fleet's resources: lists merged across ready servers under the URI rules of `resource-uri.ts`, reads and
 * subscriptions routed to the owning server, and a `changed` call whenever a server's resources may differ.
 */
export class FleetResources {
  private readonly routes: ResourceRoutes;
  private readonly loading = new Map<string, Promise<void>>();
  private readonly subs = new ResourceSubscriptions();
  /** 2026 servers: their one `subscriptions/listen` each, carrying the resources listened to. */
  private readonly listen = new ListenStreams();
  private order: string[];
  private byId: Map<string, ServerConfig>;
  /** Each server's latest `resources/list` and `resources/templates/list` cache hints (MCP 2026-07-28). */
  private readonly hints = { resources: new ListHints(), templates: new ListHints() };
  /** The catalog's re-read when the shorter of its lists' ttls runs out. */
  private readonly ttl: ListTimers;
  /** Which server handed out each `requestState` a gateway's client got, for its retry's route check. */
  private readonly inputRoutes = new InputRoutes();

  constructor(private readonly deps: FleetResourcesDeps) {
    this.order = deps.servers.map((s) => s.id);
    const ownNames = deps.servers.filter((s) => s.namespace === false).map((s) => s.id);
    this.routes = new ResourceRoutes(this.order, new Set(ownNames));
    this.byId = new Map(deps.servers.map((s) => [s.id, s]));
    this.ttl = new ListTimers(deps.clock);
  }

  /**
   * How long the fleet's resource (or template) list may be kept: the shortest ttl of the servers that offer
   * resources, `private` if any is; undefined when one of them gave none.
   */
  cacheHint(list: 'resources' | 'templates'): CacheHint | undefined {
    const offering = this.order.filter((id) => this.routes.has(id));
    return offering.length === 0 ? undefined : this.hints[list].fleet(offering);
  }

  /**
   * A reload's servers: one no longer configured is dropped (its listen stream closed, its URIs route nowhere), a
   * changed one is catalogued afresh when it is ready again, and the rest are listed in the new order.
   */
  reconfigure(servers: readonly ServerConfig[]): void {
    const next = new Map(servers.map((s) => [s.id, s]));
    for (const id of this.order) {
      if (next.has(id)) continue;
      this.listen.close(id);
      this.loading.delete(id);
      if (this.routes.drop(id)) this.deps.changed(id);
    }
    this.order = servers.map((s) => s.id);
    this.byId = next;
    const ownNames = servers.filter((s) => s.namespace === false).map((s) => s.id);
    this.routes.reconfigure(this.order, new Set(ownNames));
    this.deps.held?.(this.routes.held());
  }

  /** A server's state changed: a ready server with resources is catalogued (and re-subscribed); a gone one dropped. */
  onState(id: string, to: ServerState): void {
    if (to === 'ready') {
      const conn = this.deps.connection(id);
      // A 2026 server heard nothing of us before this start: its stream is opened again, whatever it offers.
      if (conn?.era === 'modern') void this.relisten(id, conn);
      if (!this.routes.has(id) && !this.loading.has(id)) this.load(id, true);
    } else if (to !== 'wedged') {
      this.listen.close(id);
      this.ttl.clear(id);
      this.hints.resources.set(id, 0, undefined);
      this.hints.templates.set(id, 0, undefined);
      // Both go: a reload still running for the old process must not hold off the next one.
      const had = this.routes.drop(id);
      if (this.loading.delete(id) || had) {
        this.deps.held?.(this.routes.held());
        this.deps.changed(id);
      }
    }
  }

  onConnectionEvent(id: string, event: ConnectionEvent): void {
    if (event.type === 'listen_acknowledged') this.listen.acknowledged(id, event.params);
    if (event.type === 'resources_changed' && this.routes.has(id)) this.load(id, false);
    if (event.type === 'resource_updated') {
      this.subs.deliver(id, event.uri, (err) => this.deps.warn(`resource listener threw: ${String(err)}`));
    }
  }

  async list(cursor?: string): Promise<ResourceListOutcome> {
    await this.settled();
    if (this.order.length === 0) return { ok: true, resources: [] };
    let at: { s: string; c?: string } | undefined =
      cursor === undefined ? { s: this.order[0]! } : decodeCursor(cursor);
    if (!at || !this.byId.has(at.s))
      return resourceFailure('INVALID_CURSOR', `unknown cursor ${JSON.stringify(cursor)}`);
    for (let i = this.order.indexOf(at.s); i < this.order.length; i++) {
      const id = this.order[i]!;
      const nextServer = this.order.slice(i + 1).find((s) => this.routes.has(s));
      const after = nextServer === undefined ? undefined : encodeCursor({ s: nextServer });
      const conn = this.deps.connection(id);
      const serverCursor = id === at.s ? at.c : undefined;
      if (!this.routes.has(id) || !conn) continue;
      let raw: unknown;
      try {
        const params = serverCursor === undefined ? {} : { cursor: serverCursor };
        raw = await conn.request('resources/list', params, { timeoutMs: this.timeoutOf(id) });
      } catch (err) {
        // One server failing to list leaves the others listable; its resources are absent from this walk.
        this.deps.warn(`resources/list of '${id}' failed: ${resourceFailureFromError(err, {}).message}`);
        continue;
      }
      if (!isRecord(raw) || !Array.isArray(raw.resources)) continue;
      const resources = raw.resources
        .filter((r): r is FleetResource => isRecord(r) && typeof r.uri === 'string')
        // A `namespace: false` server's URI that routes to another server is held back, never renamed.
        .filter((r) => this.routes.heldFor(id, r.uri) === undefined)
        .map((r) => ({ ...r, uri: this.routes.expose(id, r.uri) }));
      const next = typeof raw.nextCursor === 'string' ? encodeCursor({ s: id, c: raw.nextCursor }) : after;
      if (resources.length === 0 && next === after && after !== undefined) {
        at = { s: this.order[i + 1]! };
        continue;
      }
      return { ok: true, resources, ...(next !== undefined ? { nextCursor: next } : {}) };
    }
    return { ok: true, resources: [] };
  }

  async templates(): Promise<ResourceTemplatesOutcome> {
    await this.settled();
    return { ok: true, resourceTemplates: this.routes.templates() };
  }

  /** Reads at the owning server; a read that asks for input runs the host's rounds (see `readResourceAt`). */
  async read(uri: unknown, options?: InputOptions): Promise<ResourceReadOutcome> {
    const checked = checkPromptInput(options);
    if (typeof checked === 'string')
      return resourceFailure('INVALID_CALL', `invalid read options: ${checked}`);
    const per = options?.inputCapabilitiesFor;
    if (per !== undefined && typeof per !== 'function')
      return resourceFailure('INVALID_CALL', 'invalid read options: inputCapabilitiesFor must be a function');
    const opts: InputOptions = per ? { ...checked, inputCapabilitiesFor: per } : checked;
    const target = await this.route(uri);
    if (!target.ok) return target;
    const { server, original, conn } = target;
    const expose = (u: string) => this.routes.expose(server, u);
    const changed = routeChanged(this.inputRoutes, opts.retry, server, `resource '${String(uri)}'`);
    if (changed) return resourceFailure('ROUTE_CHANGED', changed, { server, uri: uri as string });
    const at = { server, conn, original, uri: uri as string, timeoutMs: this.timeoutOf(server), expose };
    const out = await readResourceAt(at, opts, this.deps.input ?? {});
    if (!out.ok && out.code === 'INPUT_REQUIRED' && opts.passInputRequired)
      rememberHanded(this.inputRoutes, out.input, server);
    return out;
  }

  async subscribe(uri: unknown, listener: (u: ResourceUpdate) => void): Promise<ResourceSubscribeOutcome> {
    if (typeof listener !== 'function') return resourceFailure('INVALID_CALL', 'listener must be a function');
    const target = await this.route(uri);
    if (!target.ok) return target;
    const { server, original, conn } = target;
    const caps = conn.serverInit?.capabilities.resources;
    if (!isRecord(caps) || caps.subscribe !== true) {
      return resourceFailure('NOT_SUPPORTED', `server '${server}' does not offer resource subscriptions`, {
        server,
        uri: uri as string,
      });
    }
    const timeoutMs = this.timeoutOf(server);
    const modern = conn.era === 'modern';
    const joined = await this.subs.join(server, original, uri as string, listener, () =>
      modern
        ? this.relisten(server, conn).then((out) => listenFailure(out, server, original))
        : conn.request('resources/subscribe', { uri: original }, { timeoutMs }).then(
            () => undefined,
            (err: unknown) => resourceFailureFromError(err, { server }),
          ),
    );
    if ('failed' in joined) return { ...joined.failed, uri: uri as string };
    const unsubscribe = async () => {
      if (!joined.remove()) return;
      const now = this.deps.connection(server);
      if (now?.era === 'modern') {
        await this.relisten(server, now);
        return;
      }
      await this.deps
        .connection(server)
        ?.request('resources/unsubscribe', { uri: original }, { timeoutMs: this.timeoutOf(server) })
        .catch(() => {});
    };
    return { ok: true, server, unsubscribe };
  }

  /** The fleet's URI for a URI `server` gave (in a tool result, say); unchanged for a server without resources. */
  uriOf(server: string, uri: string): string {
    return this.routes.has(server) ? this.routes.expose(server, uri) : uri;
  }

  close(): void {
    this.ttl.close();
    this.listen.closeAll();
    this.subs.clear();
    this.routes.clear();
  }

  private async route(
    uri: unknown,
  ): Promise<{ ok: true; server: string; original: string; conn: McpConnection } | ResourceFailure> {
    if (typeof uri !== 'string' || uri === '')
      return resourceFailure('INVALID_CALL', 'uri must be a non-empty string');
    if (this.deps.stopped()) return resourceFailure('STOPPED', 'supervisor is stopped', { uri });
    await this.settled();
    const owner = this.routes.ownerOf(uri);
    if (!owner) return resourceFailure('UNKNOWN_RESOURCE', `no server offers resource '${uri}'`, { uri });
    const timeoutMs = this.timeoutOf(owner.server);
    const conn = (await this.deps.ready(owner.server, timeoutMs))
      ? this.deps.connection(owner.server)
      : undefined;
    if (!conn)
      return resourceFailure('SERVER_DOWN', `server '${owner.server}' is not ready`, {
        server: owner.server,
        uri,
      });
    if (!isRecord(conn.serverInit?.capabilities.resources)) {
      const where = { server: owner.server, uri };
      return resourceFailure('NOT_SUPPORTED', `server '${owner.server}' does not offer resources`, where);
    }
    return { ok: true, server: owner.server, original: owner.uri, conn };
  }

  private load(id: string, fresh: boolean): void {
    const conn = this.deps.connection(id);
    const caps = conn?.serverInit?.capabilities;
    if (!conn || !isRecord(caps) || !isRecord(caps.resources)) return;
    const job = loadCatalog(conn, this.timeoutOf(id)).then((catalog) => {
      if (this.loading.get(id) !== job) return;
      this.loading.delete(id);
      if (this.deps.connection(id) !== conn) return;
      this.routes.set(id, catalog);
      this.hints.resources.set(id, 0, catalog.hints.resources);
      this.hints.templates.set(id, 0, catalog.hints.templates);
      // Read again when the shorter ttl runs out (a list_changed before it reads it again, and re-arms).
      this.ttl.arm(id, shorter(catalog.hints.resources, catalog.hints.templates), () => {
        if (this.deps.connection(id) === conn && this.routes.has(id)) this.load(id, false);
      });
      // A 2026 server's resources ride on its listen stream, opened again at ready.
      if (fresh && conn.era !== 'modern')
        for (const uri of this.subs.urisOf(id)) this.resubscribe(conn, id, uri);
      this.deps.held?.(this.routes.held());
      this.deps.changed(id);
    });
    this.loading.set(id, job);
  }

  // A restarted server forgot who subscribed: ask it again for each resource someone still listens to.
  private resubscribe(conn: McpConnection, id: string, uri: string): void {
    conn.request('resources/subscribe', { uri }, { timeoutMs: this.timeoutOf(id) }).catch((err: unknown) => {
      if (this.subs.has(id, uri))
        this.deps.warn(`could not subscribe '${id}' to ${uri} again: ${String(err)}`);
    });
  }

  /** Opens a 2026 server's stream anew with every resource listened to now; a failure is told, not thrown. */
  private async relisten(id: string, conn: McpConnection): Promise<ListenOutcome> {
    const out = await this.listen.reopen(id, conn, this.subs.urisOf(id), this.timeoutOf(id));
    if (!out.ok && this.deps.connection(id) === conn)
      this.deps.warn(`subscriptions/listen to '${id}' failed: ${String(out.error)}`);
    return out;
  }

  /** Waits for catalogs being read, so a collision with a server still loading is not missed. */
  private async settled(): Promise<void> {
    if (this.loading.size > 0) await Promise.allSettled([...this.loading.values()]);
  }

  private timeoutOf(id: string): number {
    return clampTimeout(this.byId.get(id)?.timeouts.callMs ?? 30_000);
  }
}

/** A listen stream that failed, or that the server opened without the resource: the subscribe's failure. */
function listenFailure(out: ListenOutcome, server: string, uri: string): ResourceFailure | undefined {
  if (!out.ok) return resourceFailureFromError(out.error, { server });
  if (out.honored.resourceSubscriptions?.includes(uri)) return undefined;
  return resourceFailure('NOT_SUPPORTED', `server '${server}' did not take the subscription to ${uri}`, {
    server,
  });
}

/** The hint with the shorter ttl; either, when only one is given. */
function shorter(a: CacheHint | undefined, b: CacheHint | undefined): CacheHint | undefined {
  if (!a || !b) return a ?? b;
  return a.ttlMs <= b.ttlMs ? a : b;
}
