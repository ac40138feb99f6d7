import { isRecord } from '../../framing/is-record.js';
import type { McpConnection } from '../../protocol/connection.js';
import { type ListenOutcome, ListenStreams } from './listen-streams.js';
import {
  type ResourceFailure,
  type ResourceSubscribeOutcome,
  type ResourceUpdate,
  resourceFailure,
  resourceFailureFromError,
} from './outcome.js';
import { ResourceSubscriptions } from './subscriptions.js';

/** What subscriptions ask of the fleet's resources. */
export interface ListeningHost {
  connection: (id: string) => McpConnection | undefined;
  warn: (message: string) => void;
  timeoutOf: (id: string) => number;
}

/** A resource routed to its owning server: the server, the URI it gave, and its connection. */
export interface RoutedResource {
  server: string;
  original: string;
  conn: McpConnection;
}

/**
 * Who listens to which resource, and how each server is told: `resources/subscribe` per resource before 2026,
 * one `subscriptions/listen` stream carrying them all for a 2026 server.
 */
export class ResourceListening {
  private readonly subs = new ResourceSubscriptions();
  /** 2026 servers: their one `subscriptions/listen` each, carrying the resources listened to. */
  private readonly listen = new ListenStreams();

  constructor(private readonly host: ListeningHost) {}

  acknowledged(id: string, params: Record<string, unknown>): void {
    this.listen.acknowledged(id, params);
  }

  deliver(id: string, uri: string): void {
    this.subs.deliver(id, uri, (err) => this.host.warn(`resource listener threw: ${String(err)}`));
  }

  /** The server's listen stream, if it has one, is closed. */
  close(id: string): void {
    this.listen.close(id);
  }

  closeAll(): void {
    this.listen.closeAll();
    this.subs.clear();
  }

  async subscribe(
    target: RoutedResource,
    uri: string,
    listener: (u: ResourceUpdate) => void,
  ): Promise<ResourceSubscribeOutcome> {
    const { server, original, conn } = target;
    const caps = conn.serverInit?.capabilities.resources;
    if (!isRecord(caps) || caps.subscribe !== true) {
      return resourceFailure('NOT_SUPPORTED', `server '${server}' does not offer resource subscriptions`, {
        server,
        uri,
      });
    }
    const timeoutMs = this.host.timeoutOf(server);
    const modern = conn.era === 'modern';
    const joined = await this.subs.join(server, original, uri, listener, () =>
      modern
        ? this.relisten(server, conn).then((out) => listenFailure(out, server, original))
        : conn.request('resources/subscribe', { uri: original }, { timeoutMs }).then(
            () => undefined,
            (err: unknown) => resourceFailureFromError(err, { server }),
          ),
    );
    if ('failed' in joined) return { ...joined.failed, uri };
    const unsubscribe = async () => {
      if (!joined.remove()) return;
      const now = this.host.connection(server);
      if (now?.era === 'modern') {
        await this.relisten(server, now);
        return;
      }
      await this.host
        .connection(server)
        ?.request('resources/unsubscribe', { uri: original }, { timeoutMs: this.host.timeoutOf(server) })
        .catch(() => {});
    };
    return { ok: true, server, unsubscribe };
  }

  // A restarted server forgot who subscribed: ask it again for each resource someone still listens to.
  resubscribeAll(conn: McpConnection, id: string): void {
    for (const uri of this.subs.urisOf(id)) {
      conn
        .request('resources/subscribe', { uri }, { timeoutMs: this.host.timeoutOf(id) })
        .catch((err: unknown) => {
          if (this.subs.has(id, uri))
            this.host.warn(`could not subscribe '${id}' to ${uri} again: ${String(err)}`);
        });
    }
  }

  /** Opens a 2026 server's stream anew with every resource listened to now; a failure is told, not thrown. */
  async relisten(id: string, conn: McpConnection): Promise<ListenOutcome> {
    const out = await this.listen.reopen(id, conn, this.subs.urisOf(id), this.host.timeoutOf(id));
    if (!out.ok && this.host.connection(id) === conn)
      this.host.warn(`subscriptions/listen to '${id}' failed: ${String(out.error)}`);
    return out;
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
