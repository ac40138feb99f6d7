import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server as McpServer } from '@modelcontextprotocol/sdk/server/index.js';
import type { CallClock } from '../../protocol/call-clock.js';
import { firstClientStart, resultCap, type ServeOptions, toolSearchOf } from '../create-gateway.js';
import type { Fleet } from '../fleet.js';
import { Gateway } from '../gateway.js';
import { RoundSeal } from '../seal/round-seal.js';
import { authority, type HttpAddress } from './address.js';
import type { BearerVerifier, Caller } from './auth.js';
import { DEFAULT_DRAIN, Drain, type DrainBounds, type DrainPhase } from './drain.js';
import { frontHandler, MCP_PATH } from './front.js';
import { FrontClients } from './front-clients.js';
import { type HostGuard, hostGuard } from './guard.js';
import { healthReport, readyReport } from './healthz.js';
import { STREAM_HARD_BYTES, STREAM_QUEUE_BYTES, type StreamShed } from './pass-on.js';
import { Places } from './places.js';
import { HttpSessions } from './sessions.js';
import { StatelessRequests } from './stateless.js';

/** How long a session may sit with no request in flight and no GET stream before it is closed. */
export const DEFAULT_SESSION_IDLE_MS = 30 * 60_000;
/** Sessions and 2026 listen streams open at once when neither the host nor `serve.maxSessions` says. */
export const DEFAULT_MAX_SESSIONS = 256;

export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void;

export interface HttpServeOptions extends ServeOptions {
  /** Where to listen; port 0 takes a free one. */
  address: HttpAddress;
  /** Who may call, and with which scopes; without one every client gets `scopes` (loopback only, see the CLI). */
  verifier?: BearerVerifier | undefined;
  /**
   * 32 bytes: session ids are sealed with it, and one sealed by another replica with the same key (and config) is
   * taken up here. Without it, a session lives in the process that opened it.
   */
  sessionKey?: Buffer | undefined;
  /** Answer each POST with one JSON body rather than an event stream. */
  jsonResponse?: boolean;
  /** Close a session this long without traffic (ms; 0 never); default 30 minutes. */
  sessionIdleMs?: number;
  /** Sessions and 2026 listen streams open at once; default the config's `serve.maxSessions`, else 256. */
  maxSessions?: number;
  /** What sessions' idle time is counted on; the real clock unless a test drives one. */
  clock?: CallClock;
  /** How a drain is paced; default the config's `serve.drain`, else 5 s of delay and 30 s of timeout. */
  drain?: Partial<DrainBounds>;
  /** Each step of a drain, for the host's log. */
  onDrain?: (phase: DrainPhase) => void;
  /** A line for the host's log (sessions opened and closed). */
  onLog?: (message: string, fields: Record<string, string>) => void;
  /** More routes on the same port, behind the same Host check and tokens (the CLI's `/metrics`). */
  wrap?: (
    handler: RequestHandler,
    checks: { guard: HostGuard; verifier: BearerVerifier | undefined },
  ) => RequestHandler;
}

/** The fleet served over Streamable HTTP. */
export interface HttpGateway {
  /** The port it listens on (the one asked for, or the free one it got for 0). */
  readonly port: number;
  /** `http://HOST:PORT/mcp`. */
  readonly url: string;
  /** As {@link FleetGateway.started}: the fleet starts at the first session's `initialize`. */
  readonly started: Promise<void>;
  /** Ends the sessions and 2026 listen streams whose caller `keep` refuses (a token taken out of its file). */
  revoke(keep: (callerId: string | undefined) => boolean): Promise<void>;
  /**
   * Stops taking work, in steps: `/readyz` turns 503 at once and work is still taken for the delay; then new
   * `/mcp` requests get 503 with `Connection: close`, GET and 2026 `subscriptions/listen` streams end, and the
   * requests in flight get up to the timeout, after which they are cut; then the sessions end and `/healthz` says
   * `stopping` (503). `bounds` (each defaulting to the options' `drain`) are those of the first call: later calls
   * get its promise.
   */
  drain(bounds?: Partial<DrainBounds>): Promise<void>;
  /**
   * Stops now: a drain under way skips what it waits for, one not begun runs with no delay and no timeout (what
   * is in flight is cut); then closes the listener and every connection. The fleet is the host's to stop.
   * Idempotent.
   */
  close(): Promise<void>;
}

/** Why the listener could not be bound: the address and the system's code. */
export class ListenError extends Error {
  readonly code = 'LISTEN_FAILED';
}

/**
 * The fleet over Streamable HTTP at `http://HOST:PORT/mcp`: one Gateway per 2025 session over the one fleet, a
 * Gateway per 2026 request, `/healthz` beside it. What `mcp-supervisor serve --http` runs.
 */
export async function serveHttp(fleet: Fleet, opts: HttpServeOptions): Promise<HttpGateway> {
  const { config } = fleet;
  const front = new FrontClients(fleet);
  const { started, begin } = firstClientStart(fleet);
  let up = false;
  started.then(
    () => {
      up = true;
    },
    () => {},
  );
  let made = 0;
  const search = toolSearchOf(fleet, opts.toolSearch);
  // One seal for every Gateway here: a 2026 client's retry may come back on any of them (or, with the session
  // key, on any replica).
  const { clock } = opts;
  const rounds = new RoundSeal(opts.sessionKey, clock ? () => clock.now() : Date.now);
  // Every call a Gateway makes names its caller: the credential, the session (a 2026 request has none) and the
  // client's request, so a server's request made meanwhile goes to that client alone (front-clients.ts).
  const gatewayFor = (caller: Caller | undefined, session: boolean) => {
    made += 1;
    const key = `g${made}`;
    const principal = caller?.id ?? null;
    return new Gateway(fleet, started, {
      name: opts.name ?? 'mcp-supervisor',
      version: opts.version ?? '0.0.0',
      scopes: caller ? caller.scopes : (opts.scopes ?? []),
      // MCP binds a task to the authorization context it was made in: one token's tasks are not another's.
      ...(caller ? { taskOwner: caller.id } : {}),
      maxResultBytes: resultCap(fleet, opts.maxResultBytes),
      toolSearch: search,
      ...(opts.onWarn ? { onWarn: opts.onWarn } : {}),
      onClient: begin,
      caller: { principal, session: session ? key : null },
      rounds,
      frontClient: (server: McpServer) => {
        if (session) front.add(server, key, principal);
      },
    });
  };
  const log = opts.onLog ?? (() => {});
  // Sessions and 2026 listen streams draw on the same places: each holds a Gateway and the fleet's subscriptions.
  const places = new Places(
    opts.maxSessions ?? config.serve?.maxSessions ?? DEFAULT_MAX_SESSIONS,
    config.serve?.maxSessionsPerToken,
  );
  const warn = opts.onWarn ?? (() => {});
  const sessions = new HttpSessions({
    jsonResponse: Boolean(opts.jsonResponse),
    idleMs: opts.sessionIdleMs ?? DEFAULT_SESSION_IDLE_MS,
    sessionKey: opts.sessionKey,
    places,
    clock: opts.clock,
    gateway: (caller) => gatewayFor(caller, true),
    onOpen: (session) =>
      log('session opened', {
        session: session.id,
        ...(session.callerId !== undefined ? { caller: session.callerId } : {}),
      }),
    onShed: (shed, session, method) =>
      warn(shedText(shed, `${method} ${MCP_PATH}${session ? ` (session ${session})` : ''}`)),
    onEnd: (gateway, session, why) => {
      front.remove(gateway.server);
      if (session) log('session closed', { session: session.id, why });
    },
  });
  // A 2026 request's Gateway lives as long as its response; it takes no part in answering the servers' requests.
  const modern = new StatelessRequests({
    jsonResponse: Boolean(opts.jsonResponse),
    inputSchemaOf: (tool) => fleet.getTool(tool)?.inputSchema,
    gateway: (caller) => gatewayFor(caller, false),
    places,
    onShed: (shed) => warn(shedText(shed, `POST ${MCP_PATH} (2026, no session)`)),
  });

  const http = createServer();
  const drainer = new Drain({
    endStreams: async () => {
      await Promise.all([sessions.endStreams(), modern.endListens()]);
    },
    endAll: () => sessions.close().then(() => modern.close()),
    onPhase: opts.onDrain,
  });
  const bounds = { ...DEFAULT_DRAIN, ...config.serve?.drain, ...opts.drain };
  const port = await listen(http, opts.address);
  // The allowlist names the port, known only now; no request can arrive before this turn of the loop ends.
  const guard = hostGuard(opts.address.host, port, config.serve ?? {});
  const { verifier } = opts;
  const handler = frontHandler({
    guard,
    verifier,
    sessions,
    modern,
    health: () => healthReport(fleet.status(), drainer.done),
    ready: () => {
      // A readiness probe is the sign that work is coming: it starts the fleet, as a first client would.
      if (!up) begin();
      return readyReport(drainer.ready, up);
    },
    admit: (res) => drainer.admit(res),
    onWarn: warn,
  });
  http.on('request', opts.wrap ? opts.wrap(handler, { guard, verifier }) : handler);

  let closing: Promise<void> | undefined;
  return {
    port,
    url: `http://${authority(opts.address.host, port)}${MCP_PATH}`,
    started,
    revoke: async (keep) => {
      await Promise.all([sessions.revoke(keep), modern.revoke(keep)]);
    },
    drain: (asked) => drainer.start({ ...bounds, ...asked }),
    close: () => {
      closing ??= drainer.now().then(
        () =>
          new Promise<void>((resolve) => {
            http.close(() => resolve());
            http.closeAllConnections();
          }),
      );
      return closing;
    },
  };
}

/** The warning for a stream whose client fell behind: what it lost, said once per stream. */
function shedText(shed: StreamShed, where: string): string {
  const lost = `${shed.dropped} notifications (${shed.droppedBytes} bytes)`;
  return shed.code === 'STREAM_ENDED'
    ? `http ${where}: its client fell behind its event stream by more than ${STREAM_HARD_BYTES} bytes that may not be dropped; the stream was ended, having dropped ${lost}`
    : `http ${where}: its client fell behind its event stream by more than ${STREAM_QUEUE_BYTES} bytes; dropped ${lost} meant for it`;
}

/** Binds the listener; resolves the port it got (the one asked for, or a free one for 0). */
function listen(http: ReturnType<typeof createServer>, address: HttpAddress): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) =>
      reject(
        new ListenError(
          `cannot listen on ${authority(address.host, address.port)}: ${err.code ?? err.message}`,
        ),
      );
    http.once('error', onError);
    http.listen(address.port, address.host, () => {
      http.off('error', onError);
      resolve((http.address() as AddressInfo).port);
    });
  });
}
