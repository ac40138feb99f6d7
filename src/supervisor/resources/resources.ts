import type { ServerConfig } from '../../config/types.js';
import type { McpConnection } from '../../protocol/connection.js';
import type { ConnectionEvent } from '../../protocol/connection-types.js';
import type { HeldName } from '../../registry/name-claims.js';
import type { HostInput, InputOptions } from '../input-required/host-input.js';
import type { SupervisorClock } from '../options.js';
import type { CacheHint } from '../runtime/list-hints.js';
import type { NoticeCode, ServerState } from '../types.js';
import { ResourceCatalogs } from './catalogs.js';
import { ResourceListening } from './listening.js';
import {
  type ResourceListOutcome,
  type ResourceReadOutcome,
  type ResourceSubscribeOutcome,
  type ResourceTemplatesOutcome,
  type ResourceUpdate,
  resourceFailure,
} from './outcome.js';
import { listResourcePage } from './paging.js';
import { ResourceReads, routeResource } from './reads.js';

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
  /** A coded notice about a server's lists (a listing cut short). */
  notice?: ((server: string, code: NoticeCode, message: string) => void) | undefined;
}

/**
 * The fleet's resources: lists merged across ready servers under the URI rules of `resource-uri.ts`, reads and
 * subscriptions routed to the owning server, and a `changed` call whenever a server's resources may differ.
 */
export class FleetResources {
  private readonly catalogs: ResourceCatalogs;
  private readonly listening: ResourceListening;
  private readonly reads: ResourceReads;

  constructor(private readonly deps: FleetResourcesDeps) {
    this.catalogs = new ResourceCatalogs(deps.servers, {
      connection: deps.connection,
      changed: deps.changed,
      held: deps.held,
      clock: deps.clock,
      notice: deps.notice,
      // A 2026 server's resources ride on its listen stream, opened again at ready.
      caught: (id, conn) => {
        if (conn.era !== 'modern') this.listening.resubscribeAll(conn, id);
      },
    });
    const timeoutOf = (id: string) => this.catalogs.timeoutOf(id);
    this.listening = new ResourceListening({ connection: deps.connection, warn: deps.warn, timeoutOf });
    this.reads = new ResourceReads(this.catalogs, deps);
  }

  /**
   * How long the fleet's resource (or template) list may be kept: the shortest ttl of the servers that offer
   * resources, `private` if any is; undefined when one of them gave none.
   */
  cacheHint(list: 'resources' | 'templates'): CacheHint | undefined {
    return this.catalogs.cacheHint(list);
  }

  /**
   * A reload's servers: one no longer configured is dropped (its listen stream closed, its URIs route nowhere), a
   * changed one is catalogued afresh when it is ready again, and the rest are listed in the new order.
   */
  reconfigure(servers: readonly ServerConfig[]): void {
    this.catalogs.reconfigure(servers, (id) => this.listening.close(id));
  }

  /** A server's state changed: a ready server with resources is catalogued (and re-subscribed); a gone one dropped. */
  onState(id: string, to: ServerState): void {
    if (to === 'ready') {
      const conn = this.deps.connection(id);
      // A 2026 server heard nothing of us before this start: its stream is opened again, whatever it offers.
      if (conn?.era === 'modern') void this.listening.relisten(id, conn);
      this.catalogs.ready(id);
    } else if (to !== 'wedged') {
      this.listening.close(id);
      this.catalogs.down(id);
    }
  }

  onConnectionEvent(id: string, event: ConnectionEvent): void {
    if (event.type === 'listen_acknowledged') this.listening.acknowledged(id, event.params);
    if (event.type === 'resources_changed') this.catalogs.listChanged(id);
    if (event.type === 'resource_updated') this.listening.deliver(id, event.uri);
  }

  list(cursor?: string): Promise<ResourceListOutcome> {
    return listResourcePage(this.catalogs, this.deps, cursor);
  }

  async templates(): Promise<ResourceTemplatesOutcome> {
    await this.catalogs.settled();
    return { ok: true, resourceTemplates: this.catalogs.routes.templates() };
  }

  /** Reads at the owning server; a read that asks for input runs the host's rounds (see `readResourceAt`). */
  read(uri: unknown, options?: InputOptions): Promise<ResourceReadOutcome> {
    return this.reads.read(uri, options);
  }

  async subscribe(uri: unknown, listener: (u: ResourceUpdate) => void): Promise<ResourceSubscribeOutcome> {
    if (typeof listener !== 'function') return resourceFailure('INVALID_CALL', 'listener must be a function');
    const target = await routeResource(this.catalogs, this.deps, uri);
    if (!target.ok) return target;
    return this.listening.subscribe(target, uri as string, listener);
  }

  /** The fleet's URI for a URI `server` gave (in a tool result, say); unchanged for a server without resources. */
  uriOf(server: string, uri: string): string {
    const { routes } = this.catalogs;
    return routes.has(server) ? routes.expose(server, uri) : uri;
  }

  close(): void {
    this.catalogs.closeTimers();
    this.listening.closeAll();
    this.catalogs.routes.clear();
  }
}
