import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { type CallClock, holdOpen, REAL_CLOCK } from '../../protocol/call-clock.js';
import type { Gateway } from '../gateway.js';
import type { Caller } from './auth.js';
import { SessionEventStore } from './event-store.js';
import type { StreamShed } from './pass-on.js';
import { type Place, type Places, refuseFull } from './places.js';
import { delivered, whenClosed } from './response-end.js';
import { openSession, sealSession } from './sealed-id.js';
import { takeUp } from './take-up.js';
import { answerWeb } from './web-bridge.js';

/** How long a sealed session id is accepted after its initialize, by default: a day. */
const SEALED_FOR_MS = 24 * 60 * 60 * 1000;

/** The version a sealed id records: what the client asked for; replayed, it negotiates what it negotiated first. */
function negotiated(asked: unknown): string {
  return typeof asked === 'string' ? asked : '2025-11-25';
}

/** How long a client waits before reconnecting a dropped SSE stream (the `retry` field). */
const RETRY_MS = 1000;

/** One client of `serve --http`: its transport, its own Gateway over the shared fleet, and whose it is. */
export interface HttpSession {
  id: string;
  transport: WebStandardStreamableHTTPServerTransport;
  gateway: Gateway;
  /** The credential that opened it (undefined without auth); every later request must carry the same one. */
  callerId: string | undefined;
  /** Responses still open: POSTs being answered and the GET stream. */
  open: number;
  /** When `open` last fell to 0. */
  idleSince: number;
  /** Its SSE events, kept for Last-Event-ID. */
  store: SessionEventStore;
  /** Its place under the caps, held from its `initialize` until it ends. */
  place: Place;
}

/**
 * Why a session ended: the client's DELETE (or its transport closing), no traffic for too long, its token no longer
 * accepted, shutdown, or its `initialize` answer never written whole (the client went away: no one has its id).
 */
export type SessionEnd = 'deleted' | 'idle' | 'revoked' | 'stopping' | 'undelivered';

export interface HttpSessionsOptions {
  /** A Gateway for a new session, checking calls against `caller`'s scopes. */
  gateway: (caller: Caller | undefined) => Gateway;
  /** Answer each POST with one JSON body instead of an SSE stream. */
  jsonResponse: boolean;
  /** A session with no open response for this long is closed; 0 keeps sessions until DELETE. */
  idleMs: number;
  /**
   * The places under `serve.maxSessions` and `serve.maxSessionsPerToken`, shared with the 2026 listen streams: a
   * session holds one from its `initialize` on; with none left an `initialize` gets 503 (429 past the credential's share).
   */
  places: Places;
  onOpen?: (session: HttpSession) => void;
  /** What idle time is counted on; the real clock unless a test drives one. */
  clock?: CallClock | undefined;
  /**
   * With a key, session ids are sealed (see sealed-id.ts) and an id sealed under it that this replica does not hold
   * is taken up (`takeUp`): any replica with the same key and config answers any session.
   */
  sessionKey?: Buffer | undefined;
  /** How long a sealed id is accepted after its `initialize`. */
  sealedForMs?: number | undefined;
  /** An event stream of a session (by id, once it has one) lost what its client fell behind by (passOn). */
  onShed?: (shed: StreamShed, session: string | undefined, method: string) => void;
  /** After a session's Gateway closed. */
  onEnd?: (gateway: Gateway, session: HttpSession | undefined, why: SessionEnd) => void;
}

/**
 * The live sessions of `serve --http`, by `Mcp-Session-Id`. A client that vanished without DELETE would keep its
 * Gateway forever; a session with no request in flight and no GET stream for `idleMs` is therefore closed (its
 * client gets 404 next time and, as MCP says, initializes again).
 */
export class HttpSessions {
  private readonly live = new Map<string, HttpSession>();
  /**
   * The open GET streams of every session, to end them in a drain; not those resuming with Last-Event-ID, which
   * may carry a POST's answer (the drain waits for that as for the POST).
   */
  private readonly streams = new Set<ServerResponse>();
  private closed = false;
  private sweep: unknown;
  private readonly clock: CallClock;

  constructor(private readonly opts: HttpSessionsOptions) {
    this.clock = opts.clock ?? REAL_CLOCK;
    this.armSweep();
  }

  /** The idle sweep, every quarter of the idle time (50 ms to a minute); it never holds the process open. */
  private armSweep(): void {
    if (this.opts.idleMs <= 0 || this.closed) return;
    const every = Math.min(Math.max(this.opts.idleMs / 4, 50), 60_000);
    this.sweep = this.clock.setTimeout(() => {
      this.closeIdle();
      this.armSweep();
    }, every);
    holdOpen(this.sweep, false);
  }

  get(id: string): HttpSession | undefined {
    return this.live.get(id);
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Hands a request to its session's transport, counting the response as open until it ends. */
  handle(session: HttpSession, req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.track(session, res);
    if (req.method === 'GET' && req.headers['last-event-id'] === undefined) {
      this.streams.add(res);
      whenClosed(res, () => this.streams.delete(res));
    }
    const onShed = (shed: StreamShed) => this.opts.onShed?.(shed, session.id, req.method ?? 'GET');
    return answerWeb(session.transport, req, res, { store: session.store, onShed });
  }

  /** Answers an `initialize` POST (its body already parsed) with a new session. */
  async open(
    caller: Caller | undefined,
    req: IncomingMessage,
    res: ServerResponse,
    body: unknown,
  ): Promise<void> {
    // Each session keeps a Gateway (and the fleet subscriptions it holds): without a bound, a client opening
    // sessions without end would grow the process without end. Open sessions are not touched.
    const place = this.opts.places.take(caller?.id);
    if (!place.ok) return refuseFull(res, body, place);
    // Watched before anything is written: only then does a close tell a client that went away.
    const answered = delivered(res);
    let session: HttpSession | undefined;
    try {
      session = await this.start(caller, req, res, body, place);
    } finally {
      // A session made holds its place until it ends; a request that made none gives it back now.
      if (![...this.live.values()].some((s) => s.place === place)) place.free();
    }
    // A session whose id never reached its client is one nobody can use or DELETE: it ends now, not when idle.
    if (session !== undefined && !(await answered)) await this.end(session.gateway, session, 'undelivered');
  }

  /** Ends the sessions of every credential `keep` refuses (a token taken out of the tokens file). */
  async revoke(keep: (callerId: string | undefined) => boolean): Promise<void> {
    const gone = [...this.live.values()].filter((s) => !keep(s.callerId));
    await Promise.all(gone.map((s) => this.end(s.gateway, s, 'revoked')));
  }

  /** The id a new session gets: sealed with what a replica needs to take it up, or a random UUID without a key. */
  private idFor(caller: Caller | undefined, body: unknown): () => string {
    const key = this.opts.sessionKey;
    if (!key) return () => randomUUID();
    const params = (body as { params?: Record<string, unknown> }).params ?? {};
    const record = (v: unknown) =>
      v !== null && typeof v === 'object' ? (v as Record<string, unknown>) : {};
    return () =>
      sealSession(key, {
        v: negotiated(params['protocolVersion']),
        caps: record(params['capabilities']),
        info: record(params['clientInfo']),
        ...(caller ? { caller: caller.id } : {}),
        exp: this.clock.now() + (this.opts.sealedForMs ?? SEALED_FOR_MS),
      });
  }

  /**
   * Takes up a session this replica does not hold, from its sealed id, and answers the request on it. False when
   * there is no key, the id is not one sealed under it (or expired), another caller's, or no place is left.
   */
  async takeUp(
    caller: Caller | undefined,
    id: string,
    req: IncomingMessage,
    res: ServerResponse,
  ): Promise<boolean> {
    const key = this.opts.sessionKey;
    if (!key || this.closed) return false;
    const sealed = openSession(key, id, this.clock.now());
    if (!sealed || sealed.caller !== caller?.id) return false;
    const place = this.opts.places.take(caller?.id);
    if (!place.ok) return false;
    const made = await this.make(caller, place, () => id, undefined);
    const replayed = await takeUp(made.transport, sealed);
    // Set while the replayed initialize was answered.
    const session = (made as { session?: HttpSession }).session;
    if (!replayed || session === undefined || this.closed) {
      await this.end(made.gateway, session, 'stopping');
      if (session === undefined) place.free();
      return false;
    }
    await this.handle(session, req, res);
    return true;
  }

  /** A Gateway and its transport for one session; the session is registered once the transport names it. */
  private async make(
    caller: Caller | undefined,
    place: Place,
    id: () => string,
    res: ServerResponse | undefined,
  ): Promise<{
    gateway: Gateway;
    transport: WebStandardStreamableHTTPServerTransport;
    store: SessionEventStore;
    session?: HttpSession;
  }> {
    const gateway = this.opts.gateway(caller);
    const made: {
      gateway: Gateway;
      transport?: WebStandardStreamableHTTPServerTransport;
      store: SessionEventStore;
      session?: HttpSession;
    } = {
      gateway,
      store: new SessionEventStore(),
    };
    const store = made.store;
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: id,
      enableJsonResponse: this.opts.jsonResponse,
      // Every SSE event gets an id (and a stream starts with a priming event and `retry`), so a client whose
      // connection dropped reconnects with Last-Event-ID and gets what it missed.
      eventStore: store,
      retryInterval: RETRY_MS,
      onsessioninitialized: (sid) => {
        const session: HttpSession = {
          id: sid,
          transport,
          gateway,
          callerId: caller?.id,
          open: 0,
          idleSince: this.clock.now(),
          store,
          place,
        };
        made.session = session;
        this.live.set(sid, session);
        if (res) this.track(session, res);
        this.opts.onOpen?.(session);
      },
    });
    made.transport = transport;
    // DELETE closes the transport; the SDK's Server then reports its own close.
    gateway.server.onclose = () => void this.end(gateway, made.session, 'deleted');
    await gateway.connect(transport);
    // The same object: its session is set later, when the transport names it.
    return made as typeof made & { transport: WebStandardStreamableHTTPServerTransport };
  }

  private async start(
    caller: Caller | undefined,
    req: IncomingMessage,
    res: ServerResponse,
    body: unknown,
    place: Place,
  ): Promise<HttpSession | undefined> {
    const made = await this.make(caller, place, this.idFor(caller, body), res);
    const { gateway, transport, store } = made;
    // An initialize's stream lives no longer than its answer; its session is named once it has one.
    const onShed = (shed: StreamShed) => this.opts.onShed?.(shed, made.session?.id, 'POST');
    await answerWeb(transport, req, res, { parsed: body, store, onShed });
    // Getters: the session is named while the answer is written.
    const session = (made as { session?: HttpSession }).session;
    // Refused before a session was made (a bad Accept header, say), or made after close() swept: nothing to keep.
    if (session === undefined || this.closed) {
      await this.end(gateway, session, 'stopping');
      return undefined;
    }
    return session;
  }

  /**
   * Ends every session's GET stream and keeps the sessions, whose POSTs in flight go on (a drain). The client
   * reconnects after `retry`, as after any dropped stream, and its load balancer sends it elsewhere. Resolves
   * once their responses are closed.
   */
  async endStreams(): Promise<void> {
    const open = [...this.streams];
    for (const s of this.live.values()) s.transport.closeStandaloneSSEStream();
    await Promise.all(open.map((res) => new Promise<void>((resolve) => whenClosed(res, resolve))));
  }

  /** Ends every session (their SSE streams close) and refuses new ones; idempotent. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.sweep !== undefined) this.clock.clearTimeout(this.sweep);
    await Promise.all([...this.live.values()].map((s) => this.end(s.gateway, s, 'stopping')));
  }

  private track(session: HttpSession, res: ServerResponse): void {
    session.open += 1;
    whenClosed(res, () => {
      session.open -= 1;
      if (session.open === 0) session.idleSince = this.clock.now();
    });
  }

  private closeIdle(): void {
    if (this.closed) return;
    const now = this.clock.now();
    for (const s of this.live.values())
      if (s.open === 0 && now - s.idleSince >= this.opts.idleMs) void this.end(s.gateway, s, 'idle');
  }

  private async end(gateway: Gateway, session: HttpSession | undefined, why: SessionEnd): Promise<void> {
    // The first reason wins: closing the Gateway closes its transport, which reports a close of its own.
    const first = session !== undefined && this.live.get(session.id) === session;
    if (first) this.live.delete(session.id);
    session?.place.free();
    await gateway.close();
    this.opts.onEnd?.(gateway, first ? session : undefined, why);
  }
}
