/**
 * Keeps the last `capacity` bytes a child wrote to stderr. Always drained, so a chatty server can never
 * block on a full pipe, and its tail goes into exit events for the person reading them.
 */
export class StderrRing {
  private chunks: Buffer[] = [];
  private bytes = 0;
  private total = 0;

  constructor(private readonly capacity = 16 * 1024) {}

  /** Appends a chunk, dropping the oldest bytes beyond capacity. */
  push(chunk: Buffer): void {
    this.total += chunk.length;
    if (chunk.length >= this.capacity) {
      this.chunks = [Buffer.from(chunk.subarray(chunk.length - this.capacity))];
      this.bytes = this.capacity;
      return;
    }
    this.chunks.push(chunk);
    this.bytes += chunk.length;
    while (this.bytes > this.capacity) {
      const first = this.chunks[0]!;
      const excess = this.bytes - this.capacity;
      if (first.length <= excess) {
        this.chunks.shift();
        this.bytes -= first.length;
      } else {
        this.chunks[0] = first.subarray(excess);
        this.bytes -= excess;
      }
    }
  }

  /** Bytes written over the child's life, kept or not. */
  get totalBytes(): number {
    return this.total;
  }

  /** The last `maxLines` lines (whole lines only where the ring cut one), decoded leniently. */
  tail(maxLines = 20): string {
    let text = Buffer.concat(this.chunks).toString('utf8');
    if (this.total > this.bytes) {
      const nl = text.indexOf('\n');
      if (nl >= 0) text = text.slice(nl + 1);
    }
    const lines = text.replace(/\s+$/, '').split('\n');
    return lines.slice(-maxLines).join('\n');
  }
}
