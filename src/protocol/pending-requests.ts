import type { JsonRpcId, JsonRpcMessage, JsonRpcResponse } from '../framing/json-rpc.js';
import type { ResultRequest } from '../framing/stream-decoder.js';
import type { ResultFailure } from '../framing/tool-result.js';
import { RemoteError, SupervisorError } from './errors.js';
import type { WriteOutcome } from './outgoing-queue.js';

export type ResultMode = 'text' | 'result';

/** What a tools/call resolves with when the decoder flattened (`text`) or capped (`result`) it, or found it failed. */
export interface ToolResultValue {
  kind: 'tool-result';
  text?: string | undefined;
  result?: unknown;
  failed?: ResultFailure | undefined;
}

interface Pending {
  method: string;
  resolve: (value: unknown) => void;
  reject: (err: Error) => void;
  timer: NodeJS.Timeout | undefined;
  result: ResultRequest | undefined;
  detach: () => void;
  /** Set when the request asked for progress: told of each notification, which also restarts the timeout. */
  onProgress?: ((p: ProgressUpdate) => void) | undefined;
  rearm?: (() => void) | undefined;
}

/** One `notifications/progress` of a request, without the token (which is ours, not the caller's). */
export interface ProgressUpdate {
  progress: number;
  total?: number;
  message?: string;
}

/**
 * A request that wants progress: the server is given our request id as its `progressToken`, and each progress
 * notification restarts the timeout, but never past `maxTotalMs` from the send.
 */
export interface ProgressRequest {
  onProgress: (p: ProgressUpdate) => void;
  maxTotalMs: number;
}

/**
 * The requests we sent and have no answer for yet, keyed by our own ids (which start at 0). A late answer,
 * after a timeout or cancel, finds no entry and is dropped.
 */
export class PendingRequests {
  private nextId = 0;
  private readonly map = new Map<JsonRpcId, Pending>();

  constructor(
    private readonly write: (m: JsonRpcMessage) => WriteOutcome,
    /** The error a request gets when the server's queue is full. */
    private readonly queueFull: () => Error = () => new SupervisorError('QUEUE_FULL', 'outgoing queue full'),
  ) {}

  get size(): number {
    return this.map.size;
  }

  /** Sends a request; the promise settles exactly once (answer, timeout, abort, exit, write failure). */
  send(
    method: string,
    params: unknown,
    opts: {
      timeoutMs: number;
      signal?: AbortSignal | undefined;
      result?: ResultRequest | undefined;
      progress?: ProgressRequest | undefined;
    },
    onTimeout: () => void,
  ): Promise<unknown> {
    const id = this.nextId++;
    const progress = opts.progress;
    const sent = progress ? withProgressToken(params, id) : params;
    return new Promise<unknown>((resolve, reject) => {
      if (opts.signal?.aborted) {
        reject(new SupervisorError('REQUEST_CANCELLED', `'${method}' cancelled by the caller`));
        return;
      }
      const abandon = (err: SupervisorError, reason: string) => {
        if (!this.map.has(id)) return;
        this.take(id);
        // initialize must never be cancelled (MCP), nor a discover probe a 2025 server may never have seen (it
        // has no session to cancel in yet); everything else tells the server to stop working.
        if (method !== 'initialize' && method !== 'server/discover') {
          this.write({
            jsonrpc: '2.0',
            method: 'notifications/cancelled',
            params: { requestId: id, reason },
          });
        }
        reject(err);
      };
      const onAbort = () =>
        abandon(
          new SupervisorError('REQUEST_CANCELLED', `'${method}' cancelled by the caller`),
          'cancelled by the caller',
        );
      opts.signal?.addEventListener('abort', onAbort, { once: true });
      const timed = opts.timeoutMs > 0 && Number.isFinite(opts.timeoutMs);
      const hardEnd = progress ? Date.now() + progress.maxTotalMs : Number.POSITIVE_INFINITY;
      const arm = (ms: number, hard: boolean) =>
        setTimeout(() => {
          onTimeout();
          const why = hard
            ? `timed out after ${progress?.maxTotalMs} ms in all (progress kept it going until then)`
            : `timed out after ${opts.timeoutMs} ms`;
          abandon(new SupervisorError('REQUEST_TIMEOUT', `'${method}' ${why}`), why);
        }, ms);
      const entry: Pending = {
        method,
        resolve,
        reject,
        timer: timed
          ? arm(Math.min(opts.timeoutMs, progress?.maxTotalMs ?? opts.timeoutMs), false)
          : undefined,
        result: opts.result,
        detach: () => opts.signal?.removeEventListener('abort', onAbort),
      };
      if (progress) {
        entry.onProgress = progress.onProgress;
        entry.rearm = () => {
          if (!timed) return;
          if (entry.timer) clearTimeout(entry.timer);
          const left = Math.max(1, hardEnd - Date.now());
          entry.timer = left <= opts.timeoutMs ? arm(left, true) : arm(opts.timeoutMs, false);
        };
      }
      this.map.set(id, entry);
      const message: JsonRpcMessage =
        sent === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params: sent };
      const outcome = this.write(message);
      if (outcome !== 'sent' && this.take(id)) {
        reject(
          outcome === 'full'
            ? this.queueFull()
            : new SupervisorError('WRITE_FAILED', `could not write '${method}' to the server`),
        );
      }
    });
  }

  /**
   * Takes a `notifications/progress` params object: the token is the id of a request of ours that asked for
   * progress, or the notification is dropped (a late one, or a token we never gave out).
   */
  progress(params: unknown): void {
    if (typeof params !== 'object' || params === null) return;
    const { progressToken, progress, total, message } = params as Record<string, unknown>;
    if (typeof progressToken !== 'number' || typeof progress !== 'number' || !Number.isFinite(progress))
      return;
    const p = this.map.get(progressToken);
    if (!p?.onProgress) return;
    p.rearm?.();
    const update: ProgressUpdate = { progress };
    if (typeof total === 'number' && Number.isFinite(total)) update.total = total;
    if (typeof message === 'string') update.message = message;
    try {
      p.onProgress(update);
    } catch {
      // The caller's callback is not ours to fail on; the call goes on.
    }
  }

  /** Tells the decoder whether a response id is a tools/call to flatten or cap, and how. */
  resultFor(id: JsonRpcId): ResultRequest | undefined {
    return this.map.get(id)?.result;
  }

  // The settle methods return the method of the request the server answered (undefined for a late or unknown id):
  // an answer, whatever it says, shows the server is alive, which health wants to know.

  /** Settles a request with a plain response; unknown ids are dropped. */
  settle(id: JsonRpcId, response: JsonRpcResponse): string | undefined {
    const p = this.take(id);
    if (!p) return undefined;
    if ('error' in response) {
      p.reject(new RemoteError(response.error.code, response.error.message, response.error.data));
    } else {
      p.resolve(response.result);
    }
    return p.method;
  }

  /** Settles a tools/call with the decoder's flattened text, capped result, or the failure it found. */
  settleToolResult(
    id: JsonRpcId,
    text: string | undefined,
    result: unknown,
    failed?: ResultFailure,
  ): string | undefined {
    const p = this.take(id);
    p?.resolve({ kind: 'tool-result', text, result, failed } satisfies ToolResultValue);
    return p?.method;
  }

  /** Fails one call whose answer was too large to take in; the connection lives on. */
  failOversize(id: JsonRpcId, bytes: number): string | undefined {
    const p = this.take(id);
    p?.reject(
      new SupervisorError(
        'RESULT_TOO_LARGE',
        `response of ${bytes} bytes exceeds the line limit and was discarded`,
      ),
    );
    return p?.method;
  }

  /** Fails every open request at once (the server exited): nobody waits for a timeout that cannot help. */
  failAll(err: Error): void {
    for (const id of [...this.map.keys()]) this.take(id)?.reject(err);
  }

  private take(id: JsonRpcId): Pending | undefined {
    const p = this.map.get(id);
    if (!p) return undefined;
    this.map.delete(id);
    if (p.timer) clearTimeout(p.timer);
    p.detach();
    return p;
  }
}

/** The params with `_meta.progressToken` set to our id (anything the caller put in `_meta` is kept). */
function withProgressToken(params: unknown, id: number): Record<string, unknown> {
  const base = typeof params === 'object' && params !== null ? (params as Record<string, unknown>) : {};
  const meta = typeof base._meta === 'object' && base._meta !== null ? base._meta : {};
  return { ...base, _meta: { ...meta, progressToken: id } };
}
