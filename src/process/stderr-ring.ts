/** How much of the start of stderr is kept whatever follows: where a failing start says what went wrong. */
export const STDERR_HEAD_BYTES = 2048;
/** How many of the first lines a tail shows before the marker. */
export const STDERR_HEAD_LINES = 8;

/**
 * Keeps the first bytes and the last `capacity` bytes a child wrote to stderr. Always drained, so a chatty server
 * can never block on a full pipe. Both ends go into exit events: the first lines are where "Cannot find module"
 * or "address in use" is said, the last ones are what happened just before the end, and a long stack trace in
 * between must not push the cause out.
 */
export class StderrRing {
  private head: Buffer = Buffer.alloc(0);
  private chunks: Buffer[] = [];
  private bytes = 0;
  private total = 0;
  /** Newlines seen over the child's life, so the marker can say how many lines were skipped. */
  private newlines = 0;

  constructor(
    private readonly capacity = 16 * 1024,
    private readonly headCapacity = STDERR_HEAD_BYTES,
  ) {}

  /** Appends a chunk, dropping the oldest bytes of the tail beyond capacity (the head is never dropped). */
  push(chunk: Buffer): void {
    if (this.head.length < this.headCapacity) {
      const room = this.headCapacity - this.head.length;
      this.head = Buffer.concat([this.head, chunk.subarray(0, room)]);
    }
    this.total += chunk.length;
    for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) this.newlines++;
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

  /**
   * The first {@link STDERR_HEAD_LINES} lines, a `[… N lines skipped …]` marker, and the last `maxLines` lines
   * (whole lines only where a cut fell mid-line), decoded leniently; everything, unmarked, when it fits.
   */
  tail(maxLines = 20): string {
    const tailText = Buffer.concat(this.chunks).toString('utf8');
    if (this.total === this.bytes) {
      const lines = trimEnd(tailText).split('\n');
      if (lines.length <= STDERR_HEAD_LINES + maxLines) return lines.join('\n');
      const skipped = lines.length - STDERR_HEAD_LINES - maxLines;
      return joinParts(lines.slice(0, STDERR_HEAD_LINES), skipped, lines.slice(-maxLines));
    }
    // The head's last line may be cut by its byte limit, the tail's first by the ring: both partial lines go.
    const headLines = this.head.toString('utf8').split('\n').slice(0, -1).slice(0, STDERR_HEAD_LINES);
    const firstNl = tailText.indexOf('\n');
    const keptLines = firstNl < 0 ? [] : trimEnd(tailText.slice(firstNl + 1)).split('\n');
    let tailLines = keptLines.slice(-maxLines);
    // Line numbers (from 0) of the whole output: what lies between the head and the tail is what was skipped.
    const beforeTail = this.newlines - countNewlines(tailText);
    const firstTail = beforeTail + 1 + keptLines.length - tailLines.length;
    if (firstTail < headLines.length) tailLines = tailLines.slice(headLines.length - firstTail);
    return joinParts(headLines, Math.max(0, firstTail - headLines.length), tailLines);
  }
}

function countNewlines(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

function joinParts(head: string[], skipped: number, tail: string[]): string {
  if (skipped === 0) return [...head, ...tail].join('\n');
  return [...head, `[… ${skipped} line${skipped === 1 ? '' : 's'} skipped …]`, ...tail].join('\n');
}

function trimEnd(text: string): string {
  return text.replace(/\s+$/, '');
}
