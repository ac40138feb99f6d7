import { isRecord } from '../../framing/is-record.js';
import type { McpConnection } from '../../protocol/connection.js';

/** What a `subscriptions/listen` asks for (MCP 2026-07-28); the server acknowledges the part it honours. */
export interface ListenFilter {
  toolsListChanged?: true;
  promptsListChanged?: true;
  resourcesListChanged?: true;
  resourceSubscriptions?: string[];
}

/** How a (re)open went: the filter the server honoured, or why there is none. */
export type ListenOutcome = { ok: true; honored: ListenFilter } | { ok: false; error: unknown };

interface Stream {
  conn: McpConnection;
  abort: AbortController;
  acked: (params: Record<string, unknown>) => void;
}

/**
 * One `subscriptions/listen` per 2026 server: the change notifications its capabilities offer and the resources
 * someone listens to. A 2026 server holds no subscription across a restart (the spec says the client must send
 * `subscriptions/listen` again), and its filter is fixed when opened, so the stream is opened anew at each ready
 * and each change of the resources listened to (the last one is cancelled first).
 */
export class ListenStreams {
  private readonly streams = new Map<string, Stream>();

  /** Opens `id`'s stream on `conn` for `uris`; resolves once the server acknowledged it, or failed, within `timeoutMs`. */
  reopen(
    id: string,
    conn: McpConnection,
    uris: readonly string[],
    timeoutMs: number,
  ): Promise<ListenOutcome> {
    this.close(id);
    const filter = filterFor(conn, uris);
    if (Object.keys(filter).length === 0) return Promise.resolve({ ok: true, honored: {} });
    const abort = new AbortController();
    return new Promise<ListenOutcome>((resolve) => {
      let settled = false;
      const settle = (outcome: ListenOutcome) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(outcome);
      };
      const timer = setTimeout(
        () =>
          settle({
            ok: false,
            error: new Error(`subscriptions/listen not acknowledged within ${timeoutMs} ms`),
          }),
        timeoutMs,
      );
      // A bound on the wait, never a reason for the host to stay up.
      timer.unref?.();
      const acked = (params: Record<string, unknown>) =>
        settle({
          ok: true,
          honored: isRecord(params.notifications) ? (params.notifications as ListenFilter) : {},
        });
      this.streams.set(id, { conn, abort, acked });
      // Long-lived: answered only when the server ends it, so it has no timeout of its own.
      conn
        .request('subscriptions/listen', { notifications: filter }, { timeoutMs: 0, signal: abort.signal })
        .then(
          () => settle({ ok: true, honored: {} }),
          (error: unknown) => settle({ ok: false, error }),
        )
        .finally(() => {
          if (this.streams.get(id)?.abort === abort) this.streams.delete(id);
        });
    });
  }

  /** `notifications/subscriptions/acknowledged` from server `id`: the stream opened last is the one it answers. */
  acknowledged(id: string, params: Record<string, unknown>): void {
    this.streams.get(id)?.acked(params);
  }

  /** Ends `id`'s stream (a cancel to a live server); nothing if none is open. */
  close(id: string): void {
    const stream = this.streams.get(id);
    if (!stream) return;
    this.streams.delete(id);
    stream.abort.abort();
  }

  closeAll(): void {
    for (const id of [...this.streams.keys()]) this.close(id);
  }
}

/** The change notifications the server's capabilities offer, and the resources listened to if it offers those. */
function filterFor(conn: McpConnection, uris: readonly string[]): ListenFilter {
  const caps = conn.serverInit?.capabilities ?? {};
  const offers = (kind: string, bit: string) =>
    isRecord(caps[kind]) && (caps[kind] as Record<string, unknown>)[bit] === true;
  const filter: ListenFilter = {};
  if (offers('tools', 'listChanged')) filter.toolsListChanged = true;
  if (offers('prompts', 'listChanged')) filter.promptsListChanged = true;
  if (offers('resources', 'listChanged')) filter.resourcesListChanged = true;
  if (uris.length > 0 && offers('resources', 'subscribe')) filter.resourceSubscriptions = [...uris];
  return filter;
}
