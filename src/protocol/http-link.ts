import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { JsonRpcMessage } from '../framing/json-rpc.js';
import type { ExitInfo, LinkError } from '../process/server-process.js';
import { MODERN_PROTOCOL_VERSION } from './era.js';
import { answersPosted, mayAnswerRequest } from './http-error-answer.js';
import { headers2026 } from './http-headers-2026.js';
import { describe, networkError } from './http-link-errors.js';
import { ParamHeaders } from './http-param-headers.js';
import { probeOverHttp } from './http-probe.js';
import type { WriteOutcome } from './outgoing-queue.js';
import type { LinkReader, OutgoingFacts, ServerLink } from './server-link.js';

export interface HttpLinkSpec {
  url: string;
  headers: Record<string, string>;
  /** The bound on ending the session (DELETE) at a stop. */
  shutdownMs: number;
  /** Bytes of requests posted and not yet answered before the server counts as not reading. */
  queueBytes: number;
  onFull(queuedBytes: number): void;
}

/** Why a run over HTTP ended, when it ended on its own. */
export type LinkEnd = 'connect_failed' | 'disconnected' | 'session_lost';

// Bounds a wedged server's DELETE: it is asked to end the session, but nothing waits long on a server that hangs.
const IMMEDIATE_DELETE_MS = 500;

/**
 * A Streamable HTTP session with one remote server, on the SDK's client transport (session ids, the GET stream,
 * the protocol version header). Every failure of the HTTP layer is seen here as data — the fetch the transport
 * uses is ours — and ends the run at once: before the handshake it is a failed connect, after it a disconnect,
 * and a 404 for our session is a lost session. The connection fails every call in flight on that end. An HTTP
 * error whose body is the JSON-RPC error of the request posted is that request's answer, not a failure of the link
 * (http-error-answer.ts).
 */
export class HttpLink implements ServerLink {
  readonly kind = 'remote' as const;
  readonly pid = undefined;
  readonly exited: Promise<ExitInfo>;
  private readonly transport: StreamableHTTPClientTransport;
  private resolveExit!: (exit: ExitInfo) => void;
  private exit: ExitInfo | undefined;
  private reader: LinkReader | undefined;
  private live = false;
  private ending = false;
  private stopping: Promise<ExitInfo> | undefined;
  private readonly bound = { queuedBytes: 0, droppedMessages: 0, limit: 0, queuedAtFull: 0 };
  private latched = false;
  /** Ends a probe still waiting when the link stops. */
  private readonly probes = new AbortController();
  /** Which tools mirror arguments in `Mcp-Param-*` headers, from the listings this link carried. */
  private readonly params = new ParamHeaders();

  constructor(private readonly spec: HttpLinkSpec) {
    this.bound.limit = spec.queueBytes;
    this.exited = new Promise<ExitInfo>((resolve) => {
      this.resolveExit = resolve;
    });
    this.transport = new StreamableHTTPClientTransport(new URL(spec.url), {
      requestInit: { headers: spec.headers },
      fetch: (url, init) => this.fetch(url, init),
    });
    // Failures are taken from the responses themselves (see fetch); the transport's own reports add nothing.
    this.transport.onerror = () => {};
    this.transport.onmessage = (message) => {
      this.params.received(message);
      // One JSON line per message, into the same decoder a child's stdout feeds: caps and flattening apply alike.
      if (!this.exit) this.reader?.data(Buffer.from(`${JSON.stringify(message)}\n`, 'utf8'));
    };
    void this.transport.start();
  }

  get exitInfo(): ExitInfo | undefined {
    return this.exit;
  }

  get outgoing(): OutgoingFacts {
    return this.bound;
  }

  read(reader: LinkReader): void {
    this.reader = reader;
  }

  // The transport reads its streams as they come; the decoder's own bound on queued work still holds.
  pause(): void {}
  resume(): void {}

  send(message: JsonRpcMessage): WriteOutcome {
    if (this.exit || this.ending) return 'closed';
    if (this.latched) {
      this.bound.droppedMessages++;
      return 'full';
    }
    const bytes = Buffer.byteLength(JSON.stringify(message), 'utf8');
    const queued = this.bound.queuedBytes;
    if (queued > 0 && queued + bytes > this.bound.limit) {
      this.latched = true;
      this.bound.droppedMessages++;
      this.bound.queuedAtFull = queued;
      this.spec.onFull(queued);
      return 'full';
    }
    this.bound.queuedBytes += bytes;
    this.params.sent(message);
    this.transport.send(message as JSONRPCMessage).then(
      () => {
        this.bound.queuedBytes -= bytes;
      },
      (err: unknown) => {
        this.bound.queuedBytes -= bytes;
        // Most failures were already seen in fetch; what is left (a malformed answer) ends the run the same way.
        this.fail(this.live ? 'disconnected' : 'connect_failed', { detail: describe(err) });
      },
    );
    return 'sent';
  }

  /** The era probe, as a POST of its own: whatever it is answered, the session transport has not been used yet. */
  probe(
    method: string,
    params: Record<string, unknown>,
    timeoutMs: number,
    stop?: AbortSignal,
  ): Promise<unknown> {
    return probeOverHttp({
      url: this.spec.url,
      headers: this.spec.headers,
      method,
      params,
      protocolVersion: MODERN_PROTOCOL_VERSION,
      timeoutMs,
      signal: stop ? AbortSignal.any([this.probes.signal, stop]) : this.probes.signal,
    });
  }

  negotiated(protocolVersion: string): void {
    this.transport.setProtocolVersion(protocolVersion);
  }

  established(): void {
    this.live = true;
  }

  release(): void {}

  /** Ends the session (DELETE, best effort and bounded), then closes the transport. Idempotent. */
  stop(reason: string, opts: { immediate?: boolean }): Promise<ExitInfo> {
    this.stopping ??= this.runStop(reason, opts.immediate ?? false);
    return this.stopping;
  }

  private async runStop(reason: string, immediate: boolean): Promise<ExitInfo> {
    if (this.exit) return this.exit;
    this.ending = true;
    this.probes.abort();
    const ms = immediate ? Math.min(IMMEDIATE_DELETE_MS, this.spec.shutdownMs) : this.spec.shutdownMs;
    let timer: NodeJS.Timeout | undefined;
    const deleted = this.transport.terminateSession().then(
      () => true,
      () => false,
    );
    const timedOut = await Promise.race([
      deleted.then(() => false),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(true), ms);
      }),
    ]);
    clearTimeout(timer);
    await this.transport.close();
    return this.finish(reason, true, timedOut);
  }

  private fail(reason: LinkEnd, error: Omit<LinkError, 'url'>): void {
    if (this.exit || this.ending) return;
    this.probes.abort();
    this.finish(reason, false, false, { url: this.spec.url, ...error });
    // Aborts whatever is still open (the GET stream, posts in flight); their errors find the run already ended.
    void this.transport.close();
  }

  private finish(reason: string, requested: boolean, timedOut: boolean, linkError?: LinkError): ExitInfo {
    if (this.exit) return this.exit;
    this.exit = {
      code: null,
      signal: null,
      reason,
      requested,
      timedOut,
      forced: false,
      stderrTail: '',
      ...(linkError ? { linkError } : {}),
    };
    this.reader?.end();
    this.resolveExit(this.exit);
    return this.exit;
  }

  private async fetch(url: string | URL, init?: RequestInit): Promise<Response> {
    const method = init?.method ?? 'GET';
    const withSession = new Headers(init?.headers).has('mcp-session-id');
    // The transport hands every request the one signal of its whole life; a listener per request on it would pile up
    // for as long as the session runs. Each request gets its own, tied to that one until the request is over.
    const shared = init?.signal ?? undefined;
    const own = new AbortController();
    const abort = () => own.abort(shared?.reason);
    if (shared?.aborted) abort();
    else shared?.addEventListener('abort', abort, { once: true });
    const over = () => shared?.removeEventListener('abort', abort);
    let res: Response;
    try {
      res = await fetch(url, { ...init, ...headers2026(init, this.params), signal: own.signal });
    } catch (err) {
      over();
      this.fail(this.live ? 'disconnected' : 'connect_failed', networkError(err));
      throw err;
    }
    const refused = res.status >= 400 && method === 'POST';
    // A status that may carry the posted request's own error is read first: if it does, that is the answer.
    const answerable = refused && mayAnswerRequest(res.status, withSession) && !isEventStream(res);
    // A refused GET means no server-to-client stream (MCP says 405; servers without sessions often say 404): the
    // session goes on over POSTs, whose own failures are what end it.
    if (refused && !answerable) this.refused(res, withSession);
    const init2 = { status: res.status, statusText: res.statusText, headers: res.headers };
    if (res.body && isEventStream(res)) return new Response(this.watched(res.body, over), init2);
    // A JSON answer (or none) is read whole here, as the transport would, so the request is over when it returns.
    let body: ArrayBuffer;
    try {
      body = await res.arrayBuffer();
    } catch (err) {
      this.fail(this.live ? 'disconnected' : 'connect_failed', networkError(err));
      throw err;
    } finally {
      over();
    }
    if (answerable) {
      if (answersPosted(init?.body, Buffer.from(body).toString('utf8')))
        return new Response(body, { status: 200, headers: { 'content-type': 'application/json' } });
      this.refused(res, withSession);
    }
    return new Response(body.byteLength > 0 ? body : null, init2);
  }

  /** An HTTP error to a POST that is no answer to it: the run ends (see the class comment). */
  private refused(res: Response, withSession: boolean): void {
    const detail = `HTTP ${res.status} ${res.statusText} to POST`;
    if (res.status === 404 && withSession) this.fail('session_lost', { status: 404, detail });
    else this.fail(this.live ? 'disconnected' : 'connect_failed', { status: res.status, detail });
  }

  /** The stream as it is, except that its breaking (the server gone mid-stream) ends the run at once. */
  private watched(body: ReadableStream<Uint8Array>, over: () => void): ReadableStream<Uint8Array> {
    const reader = body.getReader();
    return new ReadableStream<Uint8Array>({
      pull: async (controller) => {
        try {
          const { done, value } = await reader.read();
          if (done) {
            over();
            controller.close();
          } else controller.enqueue(value);
        } catch (err) {
          over();
          this.fail('disconnected', networkError(err));
          controller.error(err);
        }
      },
      cancel: (why) => {
        over();
        return reader.cancel(why);
      },
    });
  }
}

function isEventStream(res: Response): boolean {
  return (res.headers.get('content-type') ?? '').toLowerCase().startsWith('text/event-stream');
}
