import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { ServerStatus, SupervisorEvent } from '../supervisor/types.js';
import { type FleetPhase, pageEvent, pageRows, pageStatus } from './page-data.js';
import type { ServerDetails } from './server-details.js';

/** What the hub reads the fleet from. */
export interface HubSource {
  status(): ServerStatus[];
  subscribe(listener: (e: SupervisorEvent) => void): () => void;
  /** Whether the fleet runs, is stopping or has stopped, as the host knows it; the header shows it. */
  phase?(): FleetPhase | undefined;
}

export interface SseHubOptions {
  /** Minimum gap between two status pushes (default 100 ms: at most 10 a second). */
  statusIntervalMs?: number;
  keepaliveMs?: number;
  /** Events kept to replay to a page that connects late or reconnects. */
  historySize?: number;
  /** A client whose unsent bytes pass this is dropped (it reconnects and catches up from history). */
  maxBufferedBytes?: number;
  /** Each server's calls, log tail, tools and restarts, sent as `detail` frames. */
  details?: ServerDetails;
  /** How often changed details are sent (default 250 ms). */
  detailIntervalMs?: number;
}

interface Numbered {
  seq: number;
  event: SupervisorEvent;
}

/** Fans supervisor events out to Server-Sent-Events clients, with throttled status snapshots and keepalives. */
export class SseHub {
  readonly #source: HubSource;
  readonly #clients = new Set<ServerResponse>();
  readonly #history: Numbered[] = [];
  readonly #statusIntervalMs: number;
  readonly #historySize: number;
  readonly #maxBuffered: number;
  readonly #unsubscribe: () => void;
  readonly #keepalive: NodeJS.Timeout;
  readonly #details: ServerDetails | undefined;
  readonly #detailTimer: NodeJS.Timeout | undefined;
  // Event ids are `<boot>:<seq>` so a page that outlives a restart of this server does not skip new events.
  readonly #boot = randomUUID().slice(0, 8);
  #seq = 0;
  #lastStatusAt = Number.NEGATIVE_INFINITY;
  /** Servers whose row changed since the last push: only theirs go out, so an update's size is not the fleet's. */
  readonly #changed = new Set<string>();
  /** The fleet's ids in order as last pushed; another set or order is pushed whole. */
  #order: string | undefined;
  /** What a page that has just connected may have unread: its first state, however large, and the usual margin. */
  readonly #allowance = new WeakMap<ServerResponse, number>();
  #statusTimer: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(source: HubSource, opts: SseHubOptions = {}) {
    this.#source = source;
    this.#statusIntervalMs = opts.statusIntervalMs ?? 100;
    this.#historySize = opts.historySize ?? 200;
    this.#maxBuffered = opts.maxBufferedBytes ?? 1024 * 1024;
    this.#unsubscribe = source.subscribe((e) => this.#onEvent(e));
    this.#keepalive = setInterval(() => this.#broadcast(': keepalive\n\n'), opts.keepaliveMs ?? 15_000);
    this.#keepalive.unref();
    this.#details = opts.details;
    if (this.#details) {
      this.#detailTimer = setInterval(() => this.#flushDetails(), opts.detailIntervalMs ?? 250);
      this.#detailTimer.unref();
    }
  }

  /** How many streams are open (for tests and diagnostics). */
  get clientCount(): number {
    return this.#clients.size;
  }

  /**
   * Takes over a response as an event stream: full status first, then the history the client has not seen
   * (all of it, or what follows its `Last-Event-ID`), then live events.
   */
  attach(res: ServerResponse, lastEventId?: string): void {
    if (this.#closed) {
      res.writeHead(503).end();
      return;
    }
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    this.#clients.add(res);
    res.on('close', () => this.#clients.delete(res));
    res.write('retry: 1000\n\n');
    const status = this.#statusFrame();
    if (status) res.write(status);
    for (const id of this.#serverIds()) res.write(this.#detailFrame(id));
    const after = this.#seenUpTo(lastEventId);
    for (const n of this.#history) if (n.seq > after) res.write(this.#eventFrame(n));
    // A large fleet's first state can pass the margin on its own: it is not held against the page.
    this.#allowance.set(res, res.writableLength + this.#maxBuffered);
  }

  /**
   * Ends every stream and stops listening; safe to call twice. Each page gets the fleet as it is now and an `end`
   * frame first, so a page whose inspector closed with the fleet says stopped rather than a stale "ready".
   */
  close(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    this.#closed = true;
    this.#unsubscribe();
    clearInterval(this.#keepalive);
    if (this.#statusTimer) clearTimeout(this.#statusTimer);
    if (this.#detailTimer) clearInterval(this.#detailTimer);
    const last = this.#statusFrame();
    const end = `event: end\ndata: ${JSON.stringify({ fleet: this.#phase() ?? null })}\n\n`;
    const sent = [...this.#clients].map(
      (res) =>
        new Promise<void>((resolve) => {
          // Bounded: a page that stopped reading does not hold the close up.
          const t = setTimeout(resolve, 500);
          res.end(last + end, () => {
            clearTimeout(t);
            resolve();
          });
        }),
    );
    this.#clients.clear();
    return Promise.all(sent).then(() => {});
  }

  #onEvent(event: SupervisorEvent): void {
    if (this.#closed) return;
    // Stderr lines come up to 50 a second per server and would push state changes out of the replay; the
    // exit shows the tail.
    if (event.type === 'stderr') return;
    const n = { seq: ++this.#seq, event };
    this.#history.push(n);
    if (this.#history.length > this.#historySize) this.#history.shift();
    this.#broadcast(this.#eventFrame(n));
    if (event.type === 'state' || event.type === 'exit') {
      this.#changed.add(event.server);
      this.#scheduleStatus();
    }
    if (event.type === 'reload') {
      this.#order = undefined;
      this.#scheduleStatus();
    }
  }

  // Leading and trailing: the first change goes out at once, a burst collapses into one push per interval,
  // and the last state of a burst is always sent. The push is deferred a tick so the source has settled.
  #scheduleStatus(): void {
    if (this.#statusTimer) return;
    const wait = Math.max(0, this.#lastStatusAt + this.#statusIntervalMs - Date.now());
    this.#statusTimer = setTimeout(() => {
      this.#statusTimer = undefined;
      this.#lastStatusAt = Date.now();
      this.#broadcast(this.#updateFrame());
    }, wait);
    this.#statusTimer.unref();
  }

  #flushDetails(): void {
    if (this.#closed || !this.#details) return;
    const ids = this.#details.takeChanged();
    if (ids.length === 0 || this.#clients.size === 0) return;
    this.#broadcast(ids.map((id) => this.#detailFrame(id)).join(''));
  }

  #serverIds(): string[] {
    if (!this.#details) return [];
    try {
      return this.#source.status().map((s) => s.id);
    } catch {
      return [];
    }
  }

  #detailFrame(id: string): string {
    if (!this.#details) return '';
    try {
      return `event: detail\ndata: ${JSON.stringify(this.#details.detail(id))}\n\n`;
    } catch {
      // A detail that cannot be serialised (a log message's data with a cycle) is left out, not the stream.
      return '';
    }
  }

  #phase(): FleetPhase | undefined {
    try {
      return this.#source.phase?.();
    } catch {
      return undefined;
    }
  }

  #seenUpTo(lastEventId: string | undefined): number {
    const [boot, seq] = (lastEventId ?? '').split(':');
    const n = Number(seq);
    return boot === this.#boot && Number.isInteger(n) ? n : 0;
  }

  #eventFrame(n: Numbered): string {
    return `id: ${this.#boot}:${n.seq}\nevent: supervisor\ndata: ${JSON.stringify(pageEvent(n.event))}\n\n`;
  }

  #statusFrame(): string {
    let servers: ServerStatus[];
    try {
      servers = this.#source.status();
    } catch {
      // A source that cannot answer right now is skipped rather than shown as an empty fleet.
      return '';
    }
    return `event: status\ndata: ${JSON.stringify(pageStatus(servers, this.#phase()))}\n\n`;
  }

  /**
   * The rows of the servers that changed since the last push (`servers`), or the whole fleet (`status`) when its
   * set or order of servers is not the one the pages have.
   */
  #updateFrame(): string {
    const changed = new Set(this.#changed);
    this.#changed.clear();
    let servers: ServerStatus[];
    try {
      servers = this.#source.status();
    } catch {
      return '';
    }
    const order = servers.map((s) => s.id).join('\n');
    if (order !== this.#order) {
      this.#order = order;
      return `event: status\ndata: ${JSON.stringify(pageStatus(servers, this.#phase()))}\n\n`;
    }
    const rows = pageRows(servers.filter((s) => changed.has(s.id)));
    const phase = this.#phase();
    const data = { servers: rows, now: Date.now(), ...(phase ? { fleet: phase } : {}) };
    return `event: servers\ndata: ${JSON.stringify(data)}\n\n`;
  }

  #broadcast(frame: string): void {
    for (const res of this.#clients) {
      const allowed = this.#allowance.get(res) ?? this.#maxBuffered;
      // Once it has read down to the usual margin, the page is held to it again.
      if (allowed > this.#maxBuffered && res.writableLength <= this.#maxBuffered) this.#allowance.delete(res);
      if (res.writableLength > allowed) {
        this.#clients.delete(res);
        res.destroy();
        continue;
      }
      if (frame) res.write(frame);
    }
  }
}
