import { copyHead, copyTail } from './bytes.js';
import type { DecodedEvent } from './decoded-event.js';
import type { FrameRunner, FrameStream, FrameTaskResult } from './frame-job.js';
import type { JsonRpcId } from './json-rpc.js';
import { oversizeEvent } from './line-framer.js';
import { failedJobEvent, type LineBytes, type LineJob, lineJob } from './line-job.js';
import { ownsWholeBuffer, packLineParts } from './line-parts.js';
import { DEFAULT_MAX_LINE_BYTES, LineSplitter, type SpilledEnd } from './line-splitter.js';
import { classifyPieces, classifySpan, type LineVerdict } from './line-text.js';
import { type AskResult, messageEvent, taskEvent } from './message-event.js';
import { type Slot as EventSlot, OrderedEvents } from './ordered-events.js';
import { SNIFF_HEAD_BYTES, SNIFF_TAIL_BYTES } from './sniff.js';
import type { ResultRequest } from './tool-result.js';

export type { DecodedEvent } from './decoded-event.js';
export type { JsonRpcId, JsonRpcMessage } from './json-rpc.js';
export type { MessageCut } from './line-summary.js';
export type { CappedToolResult } from './read-result.js';
export type { ResultRequest } from './tool-result.js';

export interface StreamDecoderOptions {
  pool?: FrameRunner | undefined;
  maxLineBytes?: number;
  inlineMaxBytes?: number;
  maxInFlight?: number;
  resultFor(id: JsonRpcId): ResultRequest | undefined;
  onEvent(event: DecodedEvent): void;
  onPause?(): void;
  onResume?(): void;
  /**
   * A line still arriving is handed to the pool in parts once this much of it is held (and every quarter of
   * it after), when the pool takes lines in parts and a place in flight is free (default 4 MiB).
   */
  spillBytes?: number;
}

/** 64 KiB: whole lines up to this size are parsed on the main thread, where that is cheaper than a hop. */
export const DEFAULT_INLINE_MAX_BYTES = 64 * 1024;
/** Large lines in flight per stream before the child's stdout is paused. */
export const DEFAULT_MAX_IN_FLIGHT = 4;
/**
 * 4 MiB: a line still unfinished at this size goes to the pool in parts. Below it holding the chunks costs the
 * main thread nothing measurable; a 32 MiB line held whole set off 10 ms major GCs there.
 */
export const DEFAULT_SPILL_BYTES = 4 * 1024 * 1024;

type Slot = EventSlot<DecodedEvent>;
type Job = LineJob<Slot>;

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
  readonly #order: OrderedEvents<DecodedEvent>;
  #waiting: Job[] = [];
  /** The unfinished line being handed over in parts, and its place in the delivery order. */
  #spill: { stream: FrameStream; slot: Slot } | undefined;
  /** A spilled line that turned out too long: its place waits for the oversize event at its end. */
  #dropped: Slot | undefined;
  #inFlight = 0;
  #paused = false;
  #closed = false;
  #noise = 0;
  readonly #askResult: AskResult = (id) => this.#ask(id);

  constructor(opts: StreamDecoderOptions) {
    this.#opts = opts;
    this.#pool = opts.pool;
    this.#order = new OrderedEvents((event) => this.#deliver(event));
    this.#inlineMax = opts.inlineMaxBytes ?? DEFAULT_INLINE_MAX_BYTES;
    this.#maxInFlight = Math.max(1, opts.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT);
    const spillAt = Math.max(1, opts.spillBytes ?? DEFAULT_SPILL_BYTES);
    const spills = this.#pool?.open !== undefined;
    this.#splitter = new LineSplitter(
      opts.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES,
      {
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
        onOversize: (bytes, head, tail) => this.#oversize(oversizeEvent(bytes, head, tail)),
        ...(spills
          ? {
              onSpill: (pieces: Uint8Array[]) => this.#spillPieces(pieces),
              onSpilledLine: (end: SpilledEnd) => this.#endSpill(end),
              onSpillDropped: () => this.#dropSpill(),
            }
          : {}),
      },
      { atBytes: spillAt, batchBytes: Math.max(1, Math.floor(spillAt / 4)) },
    );
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
    this.#order.close();
    this.#waiting = [];
    this.#spill?.stream.abort();
    this.#spill = undefined;
    this.#dropped = undefined;
  }

  #verdict(verdict: LineVerdict, asked?: JsonRpcId): void {
    if (verdict === undefined) return;
    this.#order.emit(
      verdict.kind === 'message' ? messageEvent(verdict.message, asked, this.#askResult) : verdict,
    );
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
    const slot = this.#order.hold();
    const head = copyHead(pieces, SNIFF_HEAD_BYTES);
    const tail = copyTail(pieces, SNIFF_TAIL_BYTES);
    const job = this.#job(slot, { pieces, byteLength, lastShared, head, tail });
    if (this.#inFlight < this.#maxInFlight) this.#start(job);
    else this.#waiting.push(job);
    this.#updatePause();
  }

  /** A line's task, asking the owner whether it answers a call that wants its result flattened. */
  #job(slot: Slot, line: LineBytes): Job {
    return lineJob(slot, line, this.#askResult, this.#owned);
  }

  #start(job: Job): void {
    this.#inFlight++;
    this.#watch(job, () => this.#pool!.run(job.task, job.transfer));
  }

  #watch(job: Job, run: () => Promise<FrameTaskResult>): void {
    let running: Promise<FrameTaskResult>;
    try {
      running = run();
    } catch (err) {
      running = Promise.reject(err);
    }
    running.then(
      (result) => this.#settle(job, () => taskEvent(result, job.asked, this.#askResult)),
      (err: unknown) => this.#settle(job, () => failedJobEvent(job, err)),
    );
  }

  /** Takes the held pieces of the unfinished line, opening its hand-over when a place in flight is free. */
  #spillPieces(pieces: Uint8Array[]): boolean {
    let spill = this.#spill;
    if (spill === undefined) {
      if (this.#closed || this.#inFlight + this.#waiting.length >= this.#maxInFlight) return false;
      const stream = this.#pool?.open?.();
      if (stream === undefined) return false;
      spill = { stream, slot: this.#order.hold() };
      this.#spill = spill;
      this.#inFlight++;
      this.#updatePause();
    }
    const { parts, transfer } = packLineParts(pieces, false, this.#owned);
    spill.stream.push(parts, transfer);
    return true;
  }

  #endSpill(end: SpilledEnd): void {
    const spill = this.#spill;
    this.#spill = undefined;
    if (spill === undefined) return;
    const job = this.#job(spill.slot, end);
    this.#watch(job, () => spill.stream.end(job.task, job.transfer));
  }

  #dropSpill(): void {
    const spill = this.#spill;
    this.#spill = undefined;
    if (spill === undefined) return;
    spill.stream.abort();
    this.#inFlight--;
    this.#dropped = spill.slot;
    this.#updatePause();
  }

  /** An oversize line's event, in the place its hand-over took when it was spilled. */
  #oversize(event: DecodedEvent): void {
    const slot = this.#dropped;
    this.#dropped = undefined;
    if (slot === undefined) this.#order.emit(event);
    else this.#order.fill(slot, event);
  }

  #settle(job: Job, make: () => DecodedEvent | undefined): void {
    this.#inFlight--;
    if (this.#closed) return;
    const event = make();
    while (this.#inFlight < this.#maxInFlight && this.#waiting.length > 0)
      this.#start(this.#waiting.shift()!);
    this.#order.fill(job.slot, event);
    this.#updatePause();
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
