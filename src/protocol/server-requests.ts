import { DEFAULT_SERVER_LIMITS } from '../config/limits.js';
import {
  type JsonRpcMessage,
  type JsonRpcRequest,
  METHOD_NOT_FOUND,
  RATE_LIMITED,
} from '../framing/json-rpc.js';
import { TokenBucket } from './token-bucket.js';

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
    if (req.method === 'ping') {
      this.write({ jsonrpc: '2.0', id: req.id, result: {} });
      return;
    }
    if (req.method === 'roots/list' && this.roots) {
      const roots = this.roots.map((uri) => ({ uri, name: nameOf(uri) }));
      this.write({ jsonrpc: '2.0', id: req.id, result: { roots } });
      return;
    }
    this.write({
      jsonrpc: '2.0',
      id: req.id,
      error: { code: METHOD_NOT_FOUND, message: `method '${req.method}' is not offered by this client` },
    });
    this.onRefused(req.method);
  }
}

function nameOf(uri: string): string {
  const trimmed = uri.replace(/\/+$/, '');
  return trimmed.slice(trimmed.lastIndexOf('/') + 1) || uri;
}
