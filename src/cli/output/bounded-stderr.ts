/** What the program may have written to stderr that its reader has not taken yet, at most: past it, lines go. */
export const STDERR_QUEUE_BYTES = 4 * 1024 * 1024;

/** Where the lines go: a stream that says what it holds unwritten, and when it has written it all. */
export interface LineSink {
  write(line: string): unknown;
  readonly writableLength: number;
  once(event: 'drain', listener: () => void): unknown;
}

/** What was dropped while the reader fell behind. */
export interface Dropped {
  lines: number;
  bytes: number;
}

/**
 * Log lines for stderr, bounded. A pipe whose reader is slow (or gone) makes Node queue every write in memory, so a
 * server pouring log messages would grow the process by all it pours. Past `maxQueued` bytes not yet taken by the
 * reader, a line is dropped instead of queued; once the reader has taken everything (`drain`), `caughtUp` hears how
 * much went, once for each such stretch, to say it in a line of its own. A file or terminal is written at once and
 * never holds anything, so nothing is ever dropped there.
 */
export class BoundedLines {
  private dropped: Dropped = { lines: 0, bytes: 0 };

  constructor(
    private readonly sink: LineSink,
    private readonly caughtUp: (dropped: Dropped) => void,
    private readonly maxQueued = STDERR_QUEUE_BYTES,
  ) {}

  /** Writes `line`, or drops it when the sink already holds `maxQueued` bytes. */
  readonly write = (line: string): void => {
    if (this.sink.writableLength < this.maxQueued) {
      this.sink.write(line);
      return;
    }
    // The sink is past its high-water mark, so it has a drain to come: the first drop waits for it.
    if (this.dropped.lines === 0) this.sink.once('drain', () => this.tell());
    this.dropped.lines += 1;
    this.dropped.bytes += Buffer.byteLength(line, 'utf8');
  };

  private tell(): void {
    const dropped = this.dropped;
    this.dropped = { lines: 0, bytes: 0 };
    this.caughtUp(dropped);
  }
}
