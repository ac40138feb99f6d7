/** Which stream a piece of the attach stream belongs to (the engine's numbering: 1 stdout, 2 stderr). */
export type StdStream = 'stdout' | 'stderr';

const HEADER_BYTES = 8;

/**
 * Splits the attach stream of a container created without a TTY: each frame is an 8-byte header (stream byte,
 * three zero bytes, the payload's length as a big-endian u32) then the payload. Payloads are handed on as they
 * arrive, never held until a frame is whole, so a 50 MiB answer in one frame costs no 50 MiB buffer here.
 */
export class FrameDemux {
  private header = Buffer.alloc(HEADER_BYTES);
  private headerFill = 0;
  private left = 0;
  private stream: StdStream = 'stdout';

  constructor(private readonly deliver: (stream: StdStream, data: Buffer) => void) {}

  push(chunk: Buffer): void {
    let at = 0;
    while (at < chunk.length) {
      if (this.left > 0) {
        const take = Math.min(this.left, chunk.length - at);
        this.left -= take;
        this.deliver(this.stream, chunk.subarray(at, at + take));
        at += take;
        continue;
      }
      const take = Math.min(HEADER_BYTES - this.headerFill, chunk.length - at);
      chunk.copy(this.header, this.headerFill, at, at + take);
      this.headerFill += take;
      at += take;
      if (this.headerFill < HEADER_BYTES) return;
      this.headerFill = 0;
      // Stream 0 (stdin) never comes back; anything but stderr is read as stdout, as the engines do.
      this.stream = this.header[0] === 2 ? 'stderr' : 'stdout';
      this.left = this.header.readUInt32BE(4);
    }
  }

  /** Bytes of a frame still expected: non-zero at the end means the stream was cut mid-frame. */
  get pending(): number {
    return this.left + this.headerFill;
  }
}
