import { MAX_JSON_DEPTH, nestedDeeperThan } from '../framing/json-depth.js';
import type { JsonRpcId, JsonRpcMessage, JsonRpcResponse } from '../framing/json-rpc.js';
import type { MessageCut, ResultRequest } from '../framing/stream-decoder.js';
import type { ResultFailure } from '../framing/tool-result.js';
import { type CallClock, holdOpen, REAL_CLOCK } from './call-clock.js';
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
  /** When the request times out (on the clock, ms); +Infinity when it has no timeout. */
  deadline: number;
  /** The deadline is the progress bound (`maxTotalMs`), not `timeoutMs` of silence: it words the timeout. */
  hard: boolean;
  timeoutMs: number;
  result: ResultRequest | undefined;
  signal: AbortSignal | undefined;
  onAbort: (() => void) | undefined;
  onTimeout: (method: string) => void;
  /** Set when the request asked for progress: told of each notification, which also restarts the timeout. */
  progress: ProgressRequest | undefined;
  hardEnd: number;
  /** Who the request is made for, if the caller said (a gateway's session). */
  caller: string | undefined;
  onCut: ((cut: MessageCut) => void) | undefined;
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
  /**
   * One timer for every request's deadline, armed for the earliest one; most calls share a timeout, so a call sent
   * after another ends later and leaves the timer as it is. Once no request has a deadline it is left armed but
   * unref'd (it holds no process open): one call at a time then neither clears nor re-creates it, and when it
   * fires with nothing due it simply lapses.
   */
  private timer: unknown;
  private timerAt = Number.POSITIVE_INFINITY;
  private timerHeld = false;
  private timed = 0;
  private readonly sweepNow = () => this.sweep();

  constructor(
    private readonly write: (m: JsonRpcMessage) => WriteOutcome,
    /** The error a request gets when the server's queue is full. */
    private readonly queueFull: () => Error = () => new SupervisorError('QUEUE_FULL', 'outgoing queue full'),
    /** What deadlines run on; the real clock unless a test drives one. */
    private readonly clock: CallClock = REAL_CLOCK,
  ) {}

  get size(): number {
    return this.map.size;
  }

  /** Who the requests waiting now are made for (those that said): whom a server's request now may concern. */
  callers(): Set<string> {
    const out = new Set<string>();
    for (const p of this.map.values()) if (p.caller !== undefined) out.add(p.caller);
    return out;
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
      onCut?: ((cut: MessageCut) => void) | undefined;
      caller?: string | undefined;
    },
    onTimeout: (method: string) => void,
  ): Promise<unknown> {
    const id = this.nextId++;
    const progress = opts.progress;
    const signal = opts.signal;
    const sent = progress ? withProgressToken(params, id) : params;
    return new Promise<unknown>((resolve, reject) => {
      if (signal?.aborted) {
        reject(new SupervisorError('REQUEST_CANCELLED', `'${method}' cancelled by the caller`));
        return;
      }
      const timed = opts.timeoutMs > 0 && Number.isFinite(opts.timeoutMs);
      const now = timed ? this.clock.now() : 0;
      const entry: Pending = {
        method,
        resolve,
        reject,
        deadline: timed
          ? now + Math.min(opts.timeoutMs, progress?.maxTotalMs ?? opts.timeoutMs)
          : Number.POSITIVE_INFINITY,
        hard: false,
        timeoutMs: opts.timeoutMs,
        result: opts.result,
        signal,
        onAbort: undefined,
        onTimeout,
        progress,
        hardEnd: progress ? this.clock.now() + progress.maxTotalMs : Number.POSITIVE_INFINITY,
        onCut: opts.onCut,
        caller: opts.caller,
      };
      if (signal) {
        entry.onAbort = () =>
          this.abandon(
            id,
            new SupervisorError('REQUEST_CANCELLED', `'${method}' cancelled by the caller`),
            'cancelled by the caller',
          );
        signal.addEventListener('abort', entry.onAbort, { once: true });
      }
      this.map.set(id, entry);
      if (timed) {
        this.timed++;
        this.schedule(entry.deadline);
      }
      const message: JsonRpcMessage =
        sent === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params: sent };
      let outcome: WriteOutcome;
      try {
        outcome = this.write(message);
      } catch (err) {
        // Nothing was sent, so there is nothing to wait for or cancel: the request leaves with its deadline.
        this.take(id);
        const why = err instanceof Error ? err.message : String(err);
        reject(
          new SupervisorError(
            'UNWRITABLE_REQUEST',
            `invalid call: '${method}' cannot be sent as JSON: ${why}`,
          ),
        );
        return;
      }
      if (outcome !== 'sent' && this.take(id)) {
        reject(
          outcome === 'full'
            ? this.queueFull()
            : new SupervisorError('WRITE_FAILED', `could not write '${method}' to the server`),
        );
      }
    });
  }

  /** Takes the request out and rejects it, telling the server to stop working on it. */
  private abandon(id: JsonRpcId, err: SupervisorError, reason: string): void {
    const p = this.take(id);
    if (!p) return;
    // initialize must never be cancelled (MCP), nor a discover probe a 2025 server may never have seen (it
    // has no session to cancel in yet); everything else tells the server to stop working.
    if (p.method !== 'initialize' && p.method !== 'server/discover') {
      this.write({
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: id, reason },
      });
    }
    p.reject(err);
  }

  /** Arms the one timer for `deadline` unless it already fires sooner. */
  private schedule(deadline: number): void {
    if (this.timer !== undefined) {
      if (!this.timerHeld) {
        holdOpen(this.timer, true);
        this.timerHeld = true;
      }
      if (this.timerAt <= deadline) return;
      this.clock.clearTimeout(this.timer);
    }
    this.timerAt = deadline;
    this.timer = this.clock.setTimeout(this.sweepNow, Math.max(0, deadline - this.clock.now()));
    this.timerHeld = true;
  }

  /** Times out every request whose deadline passed, then arms the timer for the earliest one left. */
  private sweep(): void {
    this.timer = undefined;
    this.timerAt = Number.POSITIVE_INFINITY;
    const now = this.clock.now();
    const due: Array<[JsonRpcId, Pending]> = [];
    let next = Number.POSITIVE_INFINITY;
    for (const [id, p] of this.map) {
      if (p.deadline <= now) due.push([id, p]);
      else if (p.deadline < next) next = p.deadline;
    }
    for (const [id, p] of due) {
      // an earlier one's onTimeout may have settled this one already
      if (this.map.get(id) !== p) continue;
      p.onTimeout(p.method);
      const why = p.hard
        ? `timed out after ${p.progress?.maxTotalMs} ms in all (progress kept it going until then)`
        : `timed out after ${p.timeoutMs} ms`;
      // The bound that ran out, as data: the call's own message is made from it, never from this text.
      const bound = p.hard ? { totalMs: p.progress?.maxTotalMs } : { timeoutMs: p.timeoutMs };
      this.abandon(id, new SupervisorError('REQUEST_TIMEOUT', `'${p.method}' ${why}`, bound), why);
    }
    if (next !== Number.POSITIVE_INFINITY && this.timed > 0) this.schedule(next);
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
    if (!p?.progress) return;
    this.rearm(p);
    const update: ProgressUpdate = { progress };
    if (typeof total === 'number' && Number.isFinite(total)) update.total = total;
    if (typeof message === 'string') update.message = message;
    try {
      p.progress.onProgress(update);
    } catch {
      // The caller's callback is not ours to fail on; the call goes on.
    }
  }

  /** Progress restarts the timeout: `timeoutMs` of silence from now, never past the hard end. */
  private rearm(p: Pending): void {
    if (p.deadline === Number.POSITIVE_INFINITY) return;
    const now = this.clock.now();
    const left = Math.max(1, p.hardEnd - now);
    p.hard = left <= p.timeoutMs;
    p.deadline = now + (p.hard ? left : p.timeoutMs);
    this.schedule(p.deadline);
  }

  /** Tells the decoder whether a response id is a tools/call to flatten or cap, and how. */
  resultFor(id: JsonRpcId): ResultRequest | undefined {
    return this.map.get(id)?.result;
  }

  // The settle methods return the method of the request the server answered (undefined for a late or unknown id):
  // an answer, whatever it says, shows the server is alive, which health wants to know.

  /** Settles a request with a plain response (`cut` when it arrived cut to the caps); unknown ids are dropped. */
  settle(id: JsonRpcId, response: JsonRpcResponse, cut?: MessageCut): string | undefined {
    const p = this.take(id);
    if (!p) return undefined;
    if (cut) p.onCut?.(cut);
    // JSON nested past MAX_JSON_DEPTH would throw wherever it is written out next (json-depth.ts). A tools/list
    // page is sorted tool by tool instead (tool-listing.ts), so one such tool does not cost the server the rest.
    if ('error' in response) {
      const { code, message, data } = response.error;
      p.reject(new RemoteError(code, message, nestedDeeperThan(data, MAX_JSON_DEPTH) ? undefined : data));
    } else if (p.method !== 'tools/list' && nestedDeeperThan(response.result, MAX_JSON_DEPTH)) {
      const why = `${p.method} answered with JSON nested more than ${MAX_JSON_DEPTH} levels deep`;
      p.reject(new SupervisorError('INVALID_RESPONSE', why));
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
    // the connection is over: nothing will be sent again, so the lapsing timer goes too
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAt = Number.POSITIVE_INFINITY;
  }

  private take(id: JsonRpcId): Pending | undefined {
    const p = this.map.get(id);
    if (!p) return undefined;
    this.map.delete(id);
    if (p.deadline !== Number.POSITIVE_INFINITY && --this.timed === 0 && this.timer !== undefined) {
      holdOpen(this.timer, false);
      this.timerHeld = false;
    }
    if (p.onAbort) p.signal?.removeEventListener('abort', p.onAbort);
    return p;
  }
}

/** The params with `_meta.progressToken` set to our id (anything the caller put in `_meta` is kept). */
function withProgressToken(params: unknown, id: number): Record<string, unknown> {
  const base = typeof params === 'object' && params !== null ? (params as Record<string, unknown>) : {};
  const meta = typeof base._meta === 'object' && base._meta !== null ? base._meta : {};
  return { ...base, _meta: { ...meta, progressToken: id } };
}
