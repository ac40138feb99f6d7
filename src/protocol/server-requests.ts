import { DEFAULT_SERVER_LIMITS } from '../config/limits.js';
import { MAX_JSON_DEPTH, nestedDeeperThan } from '../framing/json-depth.js';
import {
  INVALID_PARAMS,
  type JsonRpcMessage,
  type JsonRpcRequest,
  METHOD_NOT_FOUND,
  RATE_LIMITED,
} from '../framing/json-rpc.js';
import { TokenBucket } from '../process/token-bucket.js';

/** How a request the host chose to answer ends: the result, or a JSON-RPC error to pass back. */
export type ForwardAnswer =
  | { result: unknown }
  | { error: { code: number; message: string; data?: unknown } };

/**
 * Hands a server→client request to whoever answers it for the host (a handler, a gateway's client), or says
 * it is not answered here (undefined: refused). The signal aborts when the server cancels or goes away.
 * `callers` are who the requests we have in flight to that server are made for (`CallOptions.caller`): the
 * server asks on behalf of one of them, never of anyone else.
 */
export type Forward = (
  method: string,
  params: unknown,
  signal: AbortSignal,
  callers: ReadonlySet<string>,
) => Promise<ForwardAnswer> | undefined;

/** How many forwarded requests of one server may wait for an answer at once; more get an error at once. */
export const MAX_FORWARDED = 8;
/** The longest a forwarded request waits for its answer (a person may be answering an elicitation). */
export const FORWARD_TIMEOUT_MS = 300_000;

/** How many server→client requests a server may send: `perSecond` refill, `burst` at once. */
export interface RequestRate {
  perSecond: number;
  burst: number;
  /** ms clock (default `performance.now`). */
  now?: () => number;
  /** Told of the first refusal, and again only after the bucket refilled: a flood is one report, not one per request. */
  onLimited?: (method: string) => void;
}

/**
 * Answers requests a server sends us, at once: `ping` → `{}`, `roots/list` → the configured roots, and everything
 * else (sampling, elicitation, unknown) → -32601. A server cannot drive our model or our user. Beyond its rate a
 * request gets -32000 instead, without any work; whether an answer goes out at all is the outgoing queue's call.
 */
export class ServerRequestHandler {
  private readonly bucket: TokenBucket;
  private limiting = false;
  /** Forwarded requests awaiting their answer, by the server's id (JSON-encoded, so 1 and "1" stay apart). */
  private readonly waiting = new Map<string, AbortController>();
  private closed = false;
  /** Set by the owner: requests the host answers instead of refusing them. */
  forward: Forward | undefined;
  /** Set by the owner: who the requests in flight to the server are made for, when it asks. */
  callers: () => ReadonlySet<string> = () => new Set();

  constructor(
    private readonly roots: readonly string[] | undefined,
    private readonly write: (m: JsonRpcMessage) => unknown,
    private readonly onRefused: (method: string) => void,
    private readonly rate: RequestRate = {
      perSecond: DEFAULT_SERVER_LIMITS.requestRate,
      burst: DEFAULT_SERVER_LIMITS.requestBurst,
    },
  ) {
    this.bucket = new TokenBucket(rate.perSecond, rate.burst, rate.now ?? (() => performance.now()));
  }

  /** Answers one server→client request. */
  handle(req: JsonRpcRequest): void {
    if (!this.bucket.take()) {
      if (!this.limiting) {
        this.limiting = true;
        this.rate.onLimited?.(req.method);
      }
      this.write({
        jsonrpc: '2.0',
        id: req.id,
        error: {
          code: RATE_LIMITED,
          message: `too many requests: over ${this.rate.perSecond}/s (burst ${this.rate.burst})`,
        },
      });
      return;
    }
    // A flood that a token now and then lets through is still one flood: it ends once the bucket refilled.
    if (this.bucket.wasFull) this.limiting = false;
    // Params nested past what anything can write out would throw in whoever answers or forwards them.
    if (nestedDeeperThan(req.params, MAX_JSON_DEPTH)) {
      const message = `params nested more than ${MAX_JSON_DEPTH} levels deep`;
      this.write({ jsonrpc: '2.0', id: req.id, error: { code: INVALID_PARAMS, message } });
      this.onRefused(req.method);
      return;
    }
    if (req.method === 'ping') {
      this.write({ jsonrpc: '2.0', id: req.id, result: {} });
      return;
    }
    if (req.method === 'roots/list' && this.roots) {
      const roots = this.roots.map((uri) => ({ uri, name: nameOf(uri) }));
      this.write({ jsonrpc: '2.0', id: req.id, result: { roots } });
      return;
    }
    if (this.forwarded(req)) return;
    this.write({
      jsonrpc: '2.0',
      id: req.id,
      error: { code: METHOD_NOT_FOUND, message: `method '${req.method}' is not offered by this client` },
    });
    this.onRefused(req.method);
  }

  /** The server's `notifications/cancelled` of a request it sent us: whoever answers it is told to stop. */
  cancel(requestId: unknown): void {
    const key = JSON.stringify(requestId);
    const controller = this.waiting.get(key);
    // Out of the map first: the abort must not be taken for a timeout, which is answered.
    this.waiting.delete(key);
    controller?.abort();
  }

  /** The server is gone: every forwarded request is aborted and will not be answered. */
  close(): void {
    this.closed = true;
    for (const c of this.waiting.values()) c.abort();
    this.waiting.clear();
  }

  // The answer goes out only if the request is still waiting: not after a cancel, the timeout or close.
  private forwarded(req: JsonRpcRequest): boolean {
    const key = JSON.stringify(req.id);
    const controller = new AbortController();
    const answer = this.forward?.(req.method, req.params, controller.signal, this.callers());
    if (!answer) return false;
    if (this.waiting.size >= MAX_FORWARDED || this.waiting.has(key)) {
      controller.abort();
      const why = this.waiting.has(key)
        ? 'a request with this id is still waiting'
        : 'too many requests waiting';
      this.write({ jsonrpc: '2.0', id: req.id, error: { code: RATE_LIMITED, message: why } });
      answer.catch(() => {});
      return true;
    }
    this.waiting.set(key, controller);
    const timer = setTimeout(() => controller.abort(), FORWARD_TIMEOUT_MS);
    const settle = (a: ForwardAnswer) => {
      clearTimeout(timer);
      if (this.closed || this.waiting.get(key) !== controller) return;
      this.waiting.delete(key);
      if (controller.signal.aborted) {
        this.write({
          jsonrpc: '2.0',
          id: req.id,
          error: { code: RATE_LIMITED, message: `no answer within ${FORWARD_TIMEOUT_MS} ms` },
        });
        return;
      }
      try {
        this.write({ jsonrpc: '2.0', id: req.id, ...a });
      } catch (err) {
        // The host's answer is not JSON (a BigInt, a cycle): the server still gets an answer, as an error.
        const why = err instanceof Error ? err.message : String(err);
        this.write({
          jsonrpc: '2.0',
          id: req.id,
          error: { code: INTERNAL_ERROR, message: `the answer cannot be sent as JSON: ${why}` },
        });
      }
    };
    controller.signal.addEventListener('abort', () => {
      // A timeout is answered; a cancel (which removed the entry first) is not, as MCP asks.
      if (this.waiting.get(key) === controller) settle({ result: undefined });
    });
    answer.then(settle, (err: unknown) =>
      settle({ error: { code: INTERNAL_ERROR, message: err instanceof Error ? err.message : String(err) } }),
    );
    return true;
  }
}

const INTERNAL_ERROR = -32603;

function nameOf(uri: string): string {
  const trimmed = uri.replace(/\/+$/, '');
  return trimmed.slice(trimmed.lastIndexOf('/') + 1) || uri;
}
