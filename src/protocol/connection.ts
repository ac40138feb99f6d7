import { DEFAULT_SERVER_LIMITS } from '../config/limits.js';
import { ContainerProcess } from '../container/container-process.js';
import { isNotification, isRequest, isResponse, type JsonRpcMessage } from '../framing/json-rpc.js';
import { type DecodedEvent, type MessageCut, StreamDecoder } from '../framing/stream-decoder.js';
import { type ExitInfo, ServerProcess } from '../process/server-process.js';
import { StderrLines } from '../process/stderr-lines.js';
import { type CallClock, REAL_CLOCK } from './call-clock.js';
import type {
  ConnectionEvent,
  ConnectionOptions,
  InitializeResult,
  RequestOptions,
} from './connection-types.js';
import { type Era, pinnedEra } from './era.js';
import { SupervisorError } from './errors.js';
import { exitError } from './exit-errors.js';
import { HttpLink } from './http-link.js';
import { initializeRequest } from './legacy-handshake.js';
import { negotiate } from './negotiate.js';
import { queueFullError, type WriteOutcome } from './outgoing-queue.js';
import { PendingRequests } from './pending-requests.js';
import { type RequestEnvelope, withEnvelope } from './request-meta.js';
import type { ServerLink } from './server-link.js';
import { routeNotification } from './server-notifications.js';
import { ServerRequestHandler } from './server-requests.js';
import { type StdioChild, StdioLink } from './stdio-link.js';

/** The instance label of containers made by a connection no supervisor owns. */
const CONTAINER_OWNER = Math.random().toString(36).slice(2, 10);

/**
 * One live JSON-RPC connection to one MCP server — a process over stdio, or a session over Streamable HTTP (see
 * ServerLink): spawn or connect, handshake, requests with timeouts and cancellation, answers to the server's own
 * requests, and a teardown that leaves nothing.
 */
export class McpConnection {
  readonly link: ServerLink;
  private readonly decoder: StreamDecoder;
  private readonly pending: PendingRequests;
  private readonly serverRequests: ServerRequestHandler;
  private handshakeDone = false;
  private closed = false;
  private initResult: InitializeResult | undefined;
  private exitInfo: ExitInfo | undefined;
  private eraNow: Era | undefined;
  private probeLostFlag = false;
  /** For a 2026 server, what `_meta` says on every request; unset for a 2025 one. */
  private envelope: RequestEnvelope | undefined;
  private readonly timedOut = (method: string) => this.emit({ type: 'call_timeout', method });

  constructor(private readonly opts: ConnectionOptions) {
    const queueBytes = opts.queueBytes ?? DEFAULT_SERVER_LIMITS.queueBytes;
    const onFull = (queued: number) => this.onQueueFull(queued);
    this.link = opts.remote
      ? new HttpLink({ ...opts.remote, shutdownMs: opts.shutdownMs, queueBytes, onFull })
      : new StdioLink(spawnFor(opts), queueBytes, onFull);
    this.pending = new PendingRequests(
      (m) => this.write(m),
      () => queueFullError(this.opts.serverId, this.link.outgoing),
      opts.clock,
    );
    this.serverRequests = new ServerRequestHandler(
      opts.roots,
      (m) => this.write(m),
      (method) => this.emit({ type: 'refused', method }),
      {
        perSecond: opts.requestRate?.perSecond ?? DEFAULT_SERVER_LIMITS.requestRate,
        burst: opts.requestRate?.burst ?? DEFAULT_SERVER_LIMITS.requestBurst,
        now: opts.now ?? (() => performance.now()),
        onLimited: (method) => this.emit({ type: 'rate_limited', method }),
      },
    );
    this.serverRequests.forward = opts.forward;
    this.serverRequests.callers = () => this.pending.callers();
    const link = this.link;
    this.decoder = new StreamDecoder({
      pool: opts.pool,
      ...(opts.maxLineBytes !== undefined ? { maxLineBytes: opts.maxLineBytes } : {}),
      resultFor: (id) => this.pending.resultFor(id),
      onEvent: (e) => this.onDecoded(e),
      onPause: () => link.pause(),
      onResume: () => link.resume(),
    });
    const mask = opts.mask;
    const lines = new StderrLines((line) => this.emit({ type: 'stderr', line: mask ? mask(line) : line }));
    link.read({
      data: (chunk) => this.decoder.push(chunk),
      end: () => this.decoder.end(),
      stderr: (chunk) => lines.push(chunk),
      stderrEnd: () => lines.end(),
    });
    void link.exited.then((exit) =>
      this.onExit(opts.mask ? { ...exit, stderrTail: opts.mask(exit.stderrTail) } : exit),
    );
  }

  /** A log message with this start's secret values starred out, as its stderr is; other events as they came. */
  private masked(event: ConnectionEvent): ConnectionEvent {
    const mask = this.opts.mask;
    if (!mask || event.type !== 'log') return event;
    const text = JSON.stringify(event.params);
    const starred = mask(text);
    return starred === text ? event : { type: 'log', params: JSON.parse(starred) as Record<string, unknown> };
  }

  /** Resolves once the process has exited or the session ended; its stderr tail masked as its lines are. */
  get exited(): Promise<ExitInfo> {
    const mask = this.opts.mask;
    return mask ? this.link.exited.then((e) => ({ ...e, stderrTail: mask(e.stderrTail) })) : this.link.exited;
  }

  /** What this connection's deadlines run on: a bound over many of its requests (a listing) runs on it too. */
  get clock(): CallClock {
    return this.opts.clock ?? REAL_CLOCK;
  }

  /** The server's pid, when the spawn worked; never set for a server reached over HTTP. */
  get pid(): number | undefined {
    return this.link.pid;
  }

  /** Bytes written for the server and not yet taken by it. */
  get queuedBytes(): number {
    return this.link.outgoing.queuedBytes;
  }

  /** Messages (answers, requests, notifications) refused since the queue hit its bound. */
  get droppedMessages(): number {
    return this.link.outgoing.droppedMessages;
  }

  /** How many stdout lines were skipped as not JSON-RPC. */
  get noiseCount(): number {
    return this.decoder.noiseCount;
  }

  /** The server's answer to `initialize`, once the handshake is done. */
  get serverInit(): InitializeResult | undefined {
    return this.initResult;
  }

  /** The era the handshake settled on; unset before it. */
  get era(): Era | undefined {
    return this.eraNow;
  }

  /** The server ended while `server/discover` probed it: its next start should go straight to `initialize`. */
  get probeLost(): boolean {
    return this.probeLostFlag;
  }

  /**
   * The log level asked for: a 2026 server is told on every request (`_meta`); false for a 2025 one, which is
   * told with `logging/setLevel`.
   */
  setLogLevel(level: string): boolean {
    if (this.eraNow !== 'modern' || !this.envelope) return false;
    this.envelope.logLevel = level;
    return true;
  }

  /** The exit, once the process is gone. */
  get exit(): ExitInfo | undefined {
    return this.exitInfo;
  }

  /**
   * Performs the MCP handshake within `startupMs`: the era's (see discover.ts), then for 2025 `initialize`, version
   * check, `notifications/initialized`; for 2026 the `server/discover` answer is the handshake. Rejects with a
   * SupervisorError (SPAWN_FAILED, HANDSHAKE_TIMEOUT, HANDSHAKE_FAILED, UNSUPPORTED_PROTOCOL, SERVER_EXITED).
   */
  async initialize(): Promise<InitializeResult> {
    if (this.initResult) return this.initResult;
    const exit = this.link.exitInfo;
    if (exit) throw this.endError(exit, 'before the handshake');
    const capabilities = this.clientCapabilities();
    const clientInfo = this.opts.clientInfo ?? { name: 'mcp-supervisor', version: '0.1.0' };
    const probe: RequestEnvelope = { clientCapabilities: capabilities, clientInfo };
    const pinned = pinnedEra(this.opts.protocol);
    const { era, init } = await negotiate({
      pinned,
      hint: this.opts.eraHint,
      startupMs: this.opts.startupMs,
      lateProbe: this.link.probe === undefined,
      // Unpinned over HTTP the probe is a POST of its own: a 2025 server's HTTP error to it must not end the link.
      discover: (timeoutMs, signal) =>
        this.link.probe && pinned === undefined
          ? this.link.probe('server/discover', withEnvelope(undefined, probe), timeoutMs, signal)
          : this.request('server/discover', withEnvelope(undefined, probe), { timeoutMs, signal }, true),
      initialize: (timeoutMs) =>
        initializeRequest(
          (params) => this.request('initialize', params, { timeoutMs }, true),
          capabilities,
          clientInfo,
          timeoutMs,
        ),
      onProbeLost: () => {
        this.probeLostFlag = true;
      },
      clock: this.opts.clock,
    });
    // Only the era that won is applied: the other handshake, if still out, is answered into nothing.
    if (era === 'modern') this.envelope = probe;
    this.initResult = init;
    this.handshakeDone = true;
    this.link.negotiated(init.protocolVersion);
    this.link.established();
    if (era === 'legacy') this.notify('notifications/initialized');
    this.eraNow = era;
    return init;
  }

  private clientCapabilities(): Record<string, unknown> {
    const capabilities: Record<string, unknown> = { ...this.opts.capabilities };
    if (this.opts.roots) capabilities.roots = { listChanged: false };
    return capabilities;
  }

  /**
   * Sends one request and resolves its result; rejects with SupervisorError (timeout, cancel, exit, write,
   * size) or RemoteError (the server's JSON-RPC error). Nothing but the handshake's own requests goes out before it.
   */
  request(method: string, params: unknown, opts: RequestOptions, beforeHandshake = false): Promise<unknown> {
    if (!beforeHandshake && !this.handshakeDone) {
      return Promise.reject(
        new SupervisorError('HANDSHAKE_FAILED', `'${method}' sent before the handshake completed`),
      );
    }
    const exit = this.link.exitInfo;
    if (exit) return Promise.reject(this.endError(exit, `before '${method}'`));
    if (this.closed) return Promise.reject(new SupervisorError('CLOSED', 'connection closed'));
    // A request's own input kinds replace the connection's: a 2026 server asks only for what this caller declared.
    const envelope =
      this.envelope && opts.capabilities
        ? {
            ...this.envelope,
            clientCapabilities: {
              ...withoutInputKinds(this.envelope.clientCapabilities),
              ...opts.capabilities,
            },
          }
        : this.envelope;
    const sent = envelope ? withEnvelope(params, envelope) : params;
    return this.pending.send(method, sent, opts, this.timedOut);
  }

  /** Sends a notification (no answer expected); false when it could not be written. */
  notify(method: string, params?: unknown): boolean {
    const message: JsonRpcMessage =
      params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params };
    return this.write(message) === 'sent';
  }

  /** Health check: resolves true on an answer within `timeoutMs`, false otherwise (2026 has no `ping`: discover). */
  async ping(timeoutMs: number): Promise<boolean> {
    try {
      await this.request(this.eraNow === 'modern' ? 'server/discover' : 'ping', undefined, { timeoutMs });
      return true;
    } catch {
      return false;
    }
  }

  /**
   * Stops the server (close stdin → SIGTERM → SIGKILL to its group; over HTTP: DELETE the session, close);
   * idempotent; resolves with the exit.
   */
  close(reason = 'stopped', opts: { immediate?: boolean } = {}): Promise<ExitInfo> {
    this.closed = true;
    // What still waits for 'drain' goes into the stream now, so that closing stdin delivers it before the end.
    this.link.release();
    return this.link.stop(reason, opts);
  }

  private write(message: JsonRpcMessage): WriteOutcome {
    return this.link.send(message);
  }

  private onQueueFull(queuedBytes: number): void {
    // Nothing waiting can be answered by a server that reads nothing: fail them now, not at their timeouts.
    this.pending.failAll(queueFullError(this.opts.serverId, this.link.outgoing));
    this.emit({ type: 'queue_full', queuedBytes, limitBytes: this.link.outgoing.limit });
  }

  private onDecoded(e: DecodedEvent): void {
    switch (e.kind) {
      case 'tool-result':
        this.answered(this.pending.settleToolResult(e.id, e.text, e.result, e.failed));
        return;
      case 'oversize':
        this.emit({ type: 'oversize', bytes: e.bytes });
        if (e.id !== undefined) this.answered(this.pending.failOversize(e.id, e.bytes));
        return;
      case 'noise':
        return;
      case 'message':
        if (e.cut) this.emit({ type: 'message_cut', cut: e.cut });
        this.onMessage(e.message, e.cut);
    }
  }

  private onMessage(m: JsonRpcMessage, cut?: MessageCut): void {
    if (isResponse(m)) {
      if (m.id !== null) this.answered(this.pending.settle(m.id, m, cut));
      return;
    }
    if (isRequest(m)) {
      this.serverRequests.handle(m);
      return;
    }
    if (!isNotification(m)) return;
    const route = routeNotification(m.method, m.params, this.handshakeDone);
    if (route?.kind === 'cancelled') this.serverRequests.cancel(route.requestId);
    else if (route?.kind === 'progress') this.pending.progress(route.params);
    else if (route?.kind === 'event') this.emit(this.masked(route.event));
  }

  private answered(method: string | undefined): void {
    if (method !== undefined) this.emit({ type: 'call_ok', method });
  }

  private onExit(exit: ExitInfo): void {
    this.exitInfo = exit;
    this.closed = true;
    this.pending.failAll(this.endError(exit, 'during the call'));
    this.serverRequests.close();
    this.decoder.close();
    this.emit({ type: 'exit', exit });
  }

  /** A process's end is an exit; a remote server's, even one we closed (stopped, wedged), is a disconnect. */
  private endError(exit: ExitInfo, when: string): SupervisorError {
    if (this.link.kind !== 'remote' || exit.linkError) return exitError(exit, when);
    return new SupervisorError(
      'SERVER_DISCONNECTED',
      `connection to the server closed (${exit.reason}) ${when}`,
    );
  }

  private emit(event: ConnectionEvent): void {
    if (event.type !== 'exit' && this.closed) return;
    this.opts.onEvent?.(event);
  }
}

function spawnFor(opts: ConnectionOptions): StdioChild {
  if (opts.container) {
    return ContainerProcess.spawn({
      serverId: opts.serverId,
      owner: opts.owner ?? CONTAINER_OWNER,
      settings: opts.container,
      command: opts.command,
      args: opts.args,
      env: opts.env,
      shutdownMs: opts.shutdownMs,
      engineMs: opts.startupMs,
      ...(opts.stdinGraceMs !== undefined ? { stdinGraceMs: opts.stdinGraceMs } : {}),
    });
  }
  return ServerProcess.spawn({
    serverId: opts.serverId,
    command: opts.command,
    args: opts.args,
    cwd: opts.cwd,
    env: opts.env,
    shutdownMs: opts.shutdownMs,
    ...(opts.stdinGraceMs !== undefined ? { stdinGraceMs: opts.stdinGraceMs } : {}),
    ...(opts.containment !== undefined ? { containment: opts.containment } : {}),
    ...(opts.owner !== undefined ? { owner: opts.owner } : {}),
  });
}

/** Client capabilities without the kinds of input a server may ask for (elicitation, sampling, roots). */
function withoutInputKinds(caps: Record<string, unknown>): Record<string, unknown> {
  const { elicitation: _e, sampling: _s, roots: _r, ...rest } = caps;
  return rest;
}
