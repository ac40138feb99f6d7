/** The longest stderr line passed on whole; the rest of a longer one is cut (the stderr ring still keeps its bytes). */
export const STDERR_LINE_BYTES = 4096;

/**
 * Splits a child's stderr into lines, bounded so that a flood cannot hurt the host: a line is cut at
 * {@link STDERR_LINE_BYTES} and a partial line waits only up to that size. Every line is passed on, so a store of
 * lines can keep the newest; whoever tells listeners about them limits that rate on its own side.
 */
export class StderrLines {
  private partial: Buffer[] = [];
  private partialBytes = 0;
  private cut = false;

  constructor(private readonly onLine: (line: string) => void) {}

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
    const bytes = this.partial.length === 1 ? this.partial[0]! : Buffer.concat(this.partial);
    const cut = this.cut;
    this.partial = [];
    this.partialBytes = 0;
    this.cut = false;
    let line = bytes.toString('utf8');
    if (line.endsWith('\r')) line = line.slice(0, -1);
    if (cut) line += ' […]';
    this.onLine(line);
  }
}
