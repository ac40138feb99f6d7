import type { JsonRpcId, JsonRpcMessage } from './json-rpc.js';
import { DEFAULT_MAX_LINE_BYTES, type LineSink, LineSplitter } from './line-splitter.js';
import { classifyPieces, classifySpan } from './line-text.js';
import { sniffResponseId } from './sniff.js';

/** What the framer finds in a stream of newline-delimited JSON-RPC. */
export type FrameEvent =
  | { kind: 'message'; message: JsonRpcMessage }
  | { kind: 'noise'; line: string }
  | { kind: 'oversize'; bytes: number; id?: JsonRpcId };

export interface LineFramerOptions {
  /** Longest line kept, in bytes (default 64 MiB); longer lines are reported as `oversize`. */
  maxLineBytes?: number;
}

/** The oversize event for a dropped line, with the response id sniffed from its first and last bytes. */
export function oversizeEvent(bytes: number, head: Uint8Array, tail: Uint8Array): FrameEvent {
  const id = sniffResponseId(head, tail);
  return id === undefined ? { kind: 'oversize', bytes } : { kind: 'oversize', bytes, id };
}

/**
 * Pure newline-delimited JSON-RPC framing: chunk boundaries never change the result, a stray log line is
 * noise (never a desync), and an overlong line is dropped without being held whole.
 */
export class LineFramer {
  readonly #splitter: LineSplitter;
  #out: FrameEvent[] = [];

  constructor({ maxLineBytes = DEFAULT_MAX_LINE_BYTES }: LineFramerOptions = {}) {
    const sink: LineSink = {
      onLine: (pieces, bytes) => {
        const verdict = classifyPieces(pieces, bytes);
        if (verdict) this.#out.push(verdict);
      },
      onSpan: (chunk, start, end) => {
        const verdict = classifySpan(chunk, start, end);
        if (verdict) this.#out.push(verdict);
      },
      onOversize: (bytes, head, tail) => {
        this.#out.push(oversizeEvent(bytes, head, tail));
      },
    };
    this.#splitter = new LineSplitter(maxLineBytes, sink);
  }

  /** Bytes held for the unfinished line; bounded by maxLineBytes plus one chunk. */
  get bufferedBytes(): number {
    return this.#splitter.bufferedBytes;
  }

  /** Feeds one chunk and returns the events of every line it completed. */
  push(chunk: Uint8Array): FrameEvent[] {
    this.#splitter.push(chunk);
    return this.#take();
  }

  /** Flushes a final line that had no newline. */
  end(): FrameEvent[] {
    this.#splitter.end();
    return this.#take();
  }

  #take(): FrameEvent[] {
    const out = this.#out;
    this.#out = [];
    return out;
  }
}
