import { copyHead, copyTail } from './bytes.js';
import type { FrameRunner, FrameTask, FrameTaskResult } from './frame-job.js';
import { isSuccessResponse, type JsonRpcId, type JsonRpcMessage } from './json-rpc.js';
import { oversizeEvent } from './line-framer.js';
import { ownsWholeBuffer, packLineParts } from './line-parts.js';
import { DEFAULT_MAX_LINE_BYTES, LineSplitter } from './line-splitter.js';
import type { MessageCut } from './line-summary.js';
import { classifyPieces, classifySpan, classifyText, type LineVerdict, noisePreview } from './line-text.js';
import { SNIFF_HEAD_BYTES, SNIFF_TAIL_BYTES, sniffLine } from './sniff.js';
import {
  failedToolResultEvent,
  type ResultRequest,
  type ToolResultEvent,
  toolResultEvent,
} from './tool-result.js';

export type { JsonRpcId, JsonRpcMessage } from './json-rpc.js';
export type { MessageCut } from './line-summary.js';
export type { CappedToolResult } from './read-result.js';
export type { ResultRequest } from './tool-result.js';

export type DecodedEvent =
  /** `cut`: a large notification or list page arrived as a bounded copy, and this is what it left out. */
  | { kind: 'message'; message: JsonRpcMessage; cut?: MessageCut }
  | ToolResultEvent
  | { kind: 'noise'; line: string }
  | { kind: 'oversize'; bytes: number; id?: JsonRpcId };

export interface StreamDecoderOptions {
  pool?: FrameRunner | undefined;
  maxLineBytes?: number;
  inlineMaxBytes?: number;
  maxInFlight?: number;
  resultFor(id: JsonRpcId): ResultRequest | undefined;
  onEvent(event: DecodedEvent): void;
  onPause?(): void;
  onResume?(): void;
}

/** 64 KiB: whole lines up to this size are parsed on the main thread, where that is cheaper than a hop. */
export const DEFAULT_INLINE_MAX_BYTES = 64 * 1024;
/** Large lines in flight per stream before the child's stdout is paused. */
export const DEFAULT_MAX_IN_FLIGHT = 4;

interface Slot {
  done: boolean;
  events: DecodedEvent[];
  next: number;
}
interface Job {
  slot: Slot;
  task: FrameTask;
  transfer: ArrayBuffer[];
  head: Uint8Array;
  asked: JsonRpcId | undefined;
}

/**
 * Decodes one child's stdout: small lines inline, large ones on the pool (their chunk memory transferred, so
 * `push` may detach the buffers it is given), events delivered in stream order, backpressure past maxInFlight.
 */
export class StreamDecoder {
  readonly #opts: StreamDecoderOptions;
  readonly #pool: FrameRunner | undefined;
  readonly #inlineMax: number;
  readonly #maxInFlight: number;
  readonly #splitter: LineSplitter;
  readonly #owned = new WeakSet<ArrayBuffer>();
  #queue: Slot[] = [];
  #waiting: Job[] = [];
  #inFlight = 0;
  #paused = false;
  #closed = false;
  #draining = false;
  #noise = 0;

  constructor(opts: StreamDecoderOptions) {
    this.#opts = opts;
    this.#pool = opts.pool;
    this.#inlineMax = opts.inlineMaxBytes ?? DEFAULT_INLINE_MAX_BYTES;
    this.#maxInFlight = Math.max(1, opts.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT);
    this.#splitter = new LineSplitter(opts.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES, {
      onLine: (pieces, bytes, lastShared) => {
        if (this.#pool === undefined || bytes <= this.#inlineMax)
          this.#verdict(classifyPieces(pieces, bytes));
        else this.#dispatch(pieces, bytes, lastShared);
      },
      onSpan: (chunk, start, end) => {
        if (this.#pool === undefined || end - start <= this.#inlineMax)
          this.#verdict(classifySpan(chunk, start, end));
        else this.#dispatch([chunk.subarray(start, end)], end - start, true);
      },
      onOversize: (bytes, head, tail) => this.#emit(oversizeEvent(bytes, head, tail)),
    });
  }

  /** How many lines were skipped as noise. */
  get noiseCount(): number {
    return this.#noise;
  }

  /** Feeds one chunk (a Buffer from a child's stdout is fine; its memory may be handed to a worker). */
  push(chunk: Uint8Array): void {
    if (this.#closed) return;
    if (this.#pool !== undefined && ownsWholeBuffer(chunk)) this.#owned.add(chunk.buffer as ArrayBuffer);
    this.#splitter.push(chunk);
  }

  /** Flushes a final line that had no newline. */
  end(): void {
    if (!this.#closed) this.#splitter.end();
  }

  /** Drops all pending work; no event is delivered after this. Idempotent. */
  close(): void {
    this.#closed = true;
    this.#queue = [];
    this.#waiting = [];
  }

  #verdict(verdict: LineVerdict, asked?: JsonRpcId): void {
    if (verdict === undefined) return;
    this.#emit(verdict.kind === 'message' ? this.#messageEvent(verdict.message, asked) : verdict);
  }

  #messageEvent(message: JsonRpcMessage, asked?: JsonRpcId): DecodedEvent {
    if (isSuccessResponse(message) && message.id !== asked) {
      const request = this.#ask(message.id);
      if (request) return toolResultEvent(message.id, message.result, request);
    }
    return { kind: 'message', message };
  }

  #ask(id: JsonRpcId): ResultRequest | undefined {
    try {
      return this.#opts.resultFor(id);
    } catch (err) {
      warn('resultFor', err);
      return undefined;
    }
  }

  #dispatch(pieces: Uint8Array[], byteLength: number, lastShared: boolean): void {
    const head = copyHead(pieces, SNIFF_HEAD_BYTES);
    const sniff = sniffLine(head, copyTail(pieces, SNIFF_TAIL_BYTES));
    const asked = sniff.kind === 'result' ? sniff.id : undefined;
    const request = asked === undefined ? undefined : this.#ask(asked);
    const { parts, transfer } = packLineParts(pieces, lastShared, this.#owned);
    const task: FrameTask = { parts, byteLength };
    if (request !== undefined && asked !== undefined) Object.assign(task, { id: asked, request });
    const slot: Slot = { done: false, events: [], next: 0 };
    this.#queue.push(slot);
    const job: Job = { slot, task, transfer, head, asked };
    if (this.#inFlight < this.#maxInFlight) this.#start(job);
    else this.#waiting.push(job);
    this.#updatePause();
  }

  #start(job: Job): void {
    this.#inFlight++;
    let run: Promise<FrameTaskResult>;
    try {
      run = this.#pool!.run(job.task, job.transfer);
    } catch (err) {
      run = Promise.reject(err);
    }
    run.then(
      (result) => this.#settle(job, () => this.#fromTask(job, result)),
      (err: unknown) => this.#settle(job, () => this.#failed(job, err)),
    );
  }

  #fromTask(job: Job, result: FrameTaskResult): DecodedEvent | undefined {
    if (result.kind === 'blank') return undefined;
    if (result.kind !== 'line') return result;
    const verdict = classifyText(result.line);
    if (verdict === undefined || verdict.kind === 'noise') return verdict;
    const event = this.#messageEvent(verdict.message, job.asked);
    return result.cut && event.kind === 'message' ? { ...event, cut: result.cut } : event;
  }

  #failed(job: Job, err: unknown): DecodedEvent {
    const why = `worker failed: ${err instanceof Error ? err.message : String(err)}`;
    const { id, request } = job.task;
    if (id !== undefined && request !== undefined) return failedToolResultEvent(id, why);
    return noisePreview([job.head], job.head.byteLength);
  }

  #settle(job: Job, make: () => DecodedEvent | undefined): void {
    this.#inFlight--;
    if (this.#closed) return;
    const event = make();
    job.slot.done = true;
    if (event) job.slot.events.push(event);
    while (this.#inFlight < this.#maxInFlight && this.#waiting.length > 0)
      this.#start(this.#waiting.shift()!);
    this.#drain();
    this.#updatePause();
  }

  #emit(event: DecodedEvent): void {
    if (this.#closed) return;
    if (this.#queue.length === 0) {
      this.#deliver(event);
      return;
    }
    const last = this.#queue[this.#queue.length - 1]!;
    if (last.done) last.events.push(event);
    else this.#queue.push({ done: true, events: [event], next: 0 });
  }

  #drain(): void {
    if (this.#draining) return;
    this.#draining = true;
    try {
      for (let slot = this.#queue[0]; slot?.done && !this.#closed; slot = this.#queue[0]) {
        // the slot stays queued while it delivers, so an event emitted meanwhile lands behind it
        while (slot.next < slot.events.length && !this.#closed) this.#deliver(slot.events[slot.next++]!);
        if (!this.#closed) this.#queue.shift();
      }
    } finally {
      this.#draining = false;
    }
  }

  #deliver(event: DecodedEvent): void {
    if (event.kind === 'noise') this.#noise++;
    try {
      this.#opts.onEvent(event);
    } catch (err) {
      warn('onEvent', err);
    }
  }

  #updatePause(): void {
    if (this.#closed) return;
    const busy = this.#inFlight + this.#waiting.length >= this.#maxInFlight;
    if (busy === this.#paused) return;
    this.#paused = busy;
    try {
      if (busy) this.#opts.onPause?.();
      else this.#opts.onResume?.();
    } catch (err) {
      warn(busy ? 'onPause' : 'onResume', err);
    }
  }
}

/** A callback of the owner threw: the stream goes on, and the host hears of it once per occurrence. */
function warn(callback: string, err: unknown): void {
  const message = err instanceof Error ? err.message : String(err);
  process.emitWarning(`StreamDecoder ${callback} threw: ${message}`, {
    code: 'MCP_SUPERVISOR_DECODER_CALLBACK',
  });
}
