import { asBuffer, copyHead, copyTail, rollTail } from './bytes.js';
import { SNIFF_HEAD_BYTES, SNIFF_TAIL_BYTES } from './sniff.js';

/** 64 MiB: the default longest line kept; longer ones are discarded as they stream past. */
export const DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024;

/** Receives what the splitter finds, in stream order. */
export interface LineSink {
  /**
   * One complete line (without `\n` or a trailing `\r`), as views into the pushed chunks. When `lastShared` is
   * true the last piece lies in a chunk the splitter is still reading (it holds the newline): copy it, never
   * detach it. Every other piece is this line's alone once it is reported.
   */
  onLine(pieces: Uint8Array[], byteLength: number, lastShared: boolean): void;
  /**
   * A line lying wholly inside one chunk, given as that chunk and a byte range (no view allocated: this is
   * the hot path for small messages). The chunk holds the newline, so it is shared like `lastShared` above.
   */
  onSpan(chunk: Buffer, start: number, end: number): void;
  /** A line longer than the limit, already dropped; `head` and `tail` are small copies for sniffing. */
  onOversize(byteLength: number, head: Uint8Array, tail: Uint8Array): void;
  /**
   * The held pieces of an unfinished line, offered once they reach the splitter's `spill.atBytes` (and every
   * `spill.batchBytes` after): true takes them (none shares its chunk with another line), false leaves them held.
   * A line whose pieces were taken ends in `onSpilledLine`, or in `onSpillDropped` as soon as it turns out too long
   * (its `onOversize` still follows at its end). The newest piece is always kept back: a line's end is trimmed there.
   */
  onSpill?(pieces: Uint8Array[], byteLength: number): boolean;
  /** The end of a line that was spilled. */
  onSpilledLine?(end: SpilledEnd): void;
  /** A spilled line passed the limit: what was taken of it can go. */
  onSpillDropped?(): void;
}

/** What is left of a spilled line at its end: the pieces still held, the whole line's length, copies to sniff. */
export interface SpilledEnd {
  pieces: Uint8Array[];
  byteLength: number;
  /** As for `onLine`: the last piece lies in a chunk still being read. */
  lastShared: boolean;
  head: Uint8Array;
  tail: Uint8Array;
}

/** When an unfinished line's pieces are offered to the sink (see `LineSink.onSpill`). */
export interface SpillPolicy {
  atBytes: number;
  batchBytes: number;
}

const NEWLINE = 0x0a;
const CR = 0x0d;

/**
 * Splits a byte stream into lines. The carry-over is a list of chunk views (each byte is scanned once and
 * copied at most once, by whoever consumes the line), and a line over `maxLineBytes` is dropped as it streams
 * past, so memory stays bounded by the limit whatever the line's length.
 */
export class LineSplitter {
  readonly #max: number;
  readonly #sink: LineSink;
  #pieces: Uint8Array[] = [];
  #bytes = 0;
  #discarding = false;
  #discarded = 0;
  #head: Uint8Array = new Uint8Array(0);
  #tail: Uint8Array = new Uint8Array(0);
  readonly #spill: SpillPolicy | undefined;
  /** Bytes of the current line the sink took; `#bytes` counts them too. */
  #spilled = 0;

  constructor(maxLineBytes: number, sink: LineSink, spill?: SpillPolicy) {
    this.#max = maxLineBytes;
    this.#sink = sink;
    this.#spill = sink.onSpill ? spill : undefined;
  }

  /** Bytes held for the current unfinished line (carry-over plus sniffing windows), not those spilled. */
  get bufferedBytes(): number {
    return this.#bytes - this.#spilled + this.#head.byteLength + this.#tail.byteLength;
  }

  /** Feeds one chunk; complete lines and oversize reports go to the sink before it returns. */
  push(chunk: Uint8Array): void {
    const buf = asBuffer(chunk);
    let start = 0;
    let nl = buf.indexOf(NEWLINE);
    if (nl !== -1 && (this.#bytes > 0 || this.#discarding)) {
      this.#finish(buf.subarray(0, nl), true);
      start = nl + 1;
      nl = buf.indexOf(NEWLINE, start);
    }
    for (; nl !== -1; nl = buf.indexOf(NEWLINE, start)) {
      this.#span(buf, start, nl);
      start = nl + 1;
    }
    if (start < buf.byteLength) this.#carry(start === 0 ? buf : buf.subarray(start));
  }

  /** Ends the stream: a final line without a newline is reported like any other. */
  end(): void {
    if (this.#discarding || this.#bytes > 0) this.#finish(new Uint8Array(0), false);
  }

  #carry(piece: Uint8Array): void {
    if (this.#discarding) {
      this.#discard(piece);
      return;
    }
    // one byte of slack: a trailing `\r` does not count against the limit
    if (this.#bytes + piece.byteLength > this.#max + 1) {
      this.#pieces.push(piece);
      this.#head = copyHead([this.#head, ...this.#pieces], SNIFF_HEAD_BYTES);
      this.#tail = copyTail([this.#tail, ...this.#pieces], SNIFF_TAIL_BYTES);
      this.#discarding = true;
      this.#discarded = this.#bytes + piece.byteLength;
      this.#pieces = [];
      this.#bytes = 0;
      this.#dropSpill();
      return;
    }
    this.#pieces.push(piece);
    this.#bytes += piece.byteLength;
    if (this.#spill !== undefined) this.#offer(this.#spill);
  }

  /** Offers all held pieces but the newest; the head and tail windows keep what sniffing needs of them. */
  #offer(spill: SpillPolicy): void {
    const held = this.#bytes - this.#spilled;
    if (this.#pieces.length < 2 || held < (this.#spilled > 0 ? spill.batchBytes : spill.atBytes)) return;
    const give = this.#pieces.slice(0, -1);
    const bytes = held - this.#pieces[this.#pieces.length - 1]!.byteLength;
    // copied before the sink takes the pieces (it may detach them)
    const head = copyHead([this.#head, ...give], SNIFF_HEAD_BYTES);
    const tail = copyTail([this.#tail, ...give], SNIFF_TAIL_BYTES);
    if (!this.#sink.onSpill!(give, bytes)) return;
    this.#head = head;
    this.#tail = tail;
    this.#spilled += bytes;
    this.#pieces = this.#pieces.slice(-1);
  }

  #dropSpill(): void {
    if (this.#spilled === 0) return;
    this.#spilled = 0;
    this.#sink.onSpillDropped?.();
  }

  #discard(piece: Uint8Array): void {
    if (piece.byteLength === 0) return;
    this.#discarded += piece.byteLength;
    this.#tail = rollTail(this.#tail, piece, SNIFF_TAIL_BYTES);
  }

  #span(buf: Buffer, start: number, end: number): void {
    if (end > start && buf[end - 1] === CR) end--;
    const bytes = end - start;
    if (bytes === 0) return;
    if (bytes > this.#max) {
      const line = [buf.subarray(start, end)];
      this.#sink.onOversize(bytes, copyHead(line, SNIFF_HEAD_BYTES), copyTail(line, SNIFF_TAIL_BYTES));
      return;
    }
    this.#sink.onSpan(buf, start, end);
  }

  #finish(last: Uint8Array, lastShared: boolean): void {
    if (this.#discarding) {
      this.#discard(last);
      let bytes = this.#discarded;
      if (this.#tail[this.#tail.byteLength - 1] === CR) bytes--;
      const head = this.#head;
      const tail = this.#tail;
      this.#discarding = false;
      this.#discarded = 0;
      this.#head = new Uint8Array(0);
      this.#tail = new Uint8Array(0);
      this.#sink.onOversize(bytes, head, tail);
      return;
    }
    const pieces = this.#pieces;
    let bytes = this.#bytes + last.byteLength;
    if (last.byteLength > 0) pieces.push(last);
    else lastShared = false;
    const spilled = this.#spilled > 0;
    const head = this.#head;
    const tail = this.#tail;
    this.#pieces = [];
    this.#bytes = 0;
    this.#spilled = 0;
    this.#head = new Uint8Array(0);
    this.#tail = new Uint8Array(0);
    const end = pieces[pieces.length - 1];
    if (end !== undefined && end[end.byteLength - 1] === CR) {
      bytes--;
      if (end.byteLength === 1) {
        pieces.pop();
        lastShared = false;
      } else pieces[pieces.length - 1] = end.subarray(0, end.byteLength - 1);
    }
    if (bytes === 0) return;
    // head and tail hold what was spilled of the line (nothing when none was)
    const lineHead = () => copyHead([head, ...pieces], SNIFF_HEAD_BYTES);
    const lineTail = () => copyTail([tail, ...pieces], SNIFF_TAIL_BYTES);
    if (bytes > this.#max) {
      if (spilled) this.#sink.onSpillDropped?.();
      this.#sink.onOversize(bytes, lineHead(), lineTail());
      return;
    }
    if (spilled)
      this.#sink.onSpilledLine?.({
        pieces,
        byteLength: bytes,
        lastShared,
        head: lineHead(),
        tail: lineTail(),
      });
    else this.#sink.onLine(pieces, bytes, lastShared);
  }
}
