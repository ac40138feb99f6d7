import { TokenBucket } from './token-bucket.js';

/** The longest stderr line passed on whole; the rest of a longer one is cut (the ring still keeps its bytes). */
export const STDERR_LINE_BYTES = 4096;

export interface StderrLine {
  line: string;
  /** Lines dropped by the rate limit since the last line passed on. */
  dropped: number;
}

export interface StderrLinesOptions {
  /** Lines passed on per second, and the burst allowed (default 50/s, 200). */
  perSecond?: number;
  burst?: number;
  now?: () => number;
}

/**
 * Splits a child's stderr into lines for listeners, bounded so that a flood cannot hurt the host: a line is cut
 * at {@link STDERR_LINE_BYTES}, a partial line waits only up to that size, and lines beyond the rate are counted,
 * not kept. The count rides on the next line passed on. The stderr ring is fed separately and keeps everything.
 */
export class StderrLines {
  private partial: Buffer[] = [];
  private partialBytes = 0;
  private cut = false;
  private dropped = 0;
  private readonly bucket: TokenBucket;

  constructor(
    private readonly onLine: (line: StderrLine) => void,
    opts: StderrLinesOptions = {},
  ) {
    this.bucket = new TokenBucket(
      opts.perSecond ?? 50,
      opts.burst ?? 200,
      opts.now ?? (() => performance.now()),
    );
  }

  push(chunk: Buffer): void {
    let start = 0;
    for (let nl = chunk.indexOf(10); nl >= 0; nl = chunk.indexOf(10, start)) {
      this.append(chunk.subarray(start, nl));
      this.flush();
      start = nl + 1;
    }
    this.append(chunk.subarray(start));
  }

  /** Passes on what is left of an unterminated last line (the child closed stderr). */
  end(): void {
    if (this.partialBytes > 0 || this.cut) this.flush();
  }

  private append(part: Buffer): void {
    const room = STDERR_LINE_BYTES - this.partialBytes;
    if (part.length > room) this.cut = true;
    if (room <= 0 || part.length === 0) return;
    const kept = part.subarray(0, room);
    // Copied: the stream may reuse its buffer.
    this.partial.push(Buffer.from(kept));
    this.partialBytes += kept.length;
  }

  private flush(): void {
    const bytes = Buffer.concat(this.partial);
    const cut = this.cut;
    this.partial = [];
    this.partialBytes = 0;
    this.cut = false;
    if (!this.bucket.take()) {
      this.dropped++;
      return;
    }
    let line = bytes.toString('utf8');
    if (line.endsWith('\r')) line = line.slice(0, -1);
    if (cut) line += ' […]';
    const dropped = this.dropped;
    this.dropped = 0;
    this.onLine({ line, dropped });
  }
}
