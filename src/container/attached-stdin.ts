import type { Socket } from 'node:net';
import { Writable } from 'node:stream';

/**
 * A container's stdin as a writable that exists before the container does: what is written before the attach
 * waits (and pushes back, as a full pipe would); after it, each write completes when the socket took it, and the
 * end half-closes the socket, which the server reads as EOF.
 */
export class AttachedStdin extends Writable {
  private socket: Socket | undefined;
  private held: { chunk: Buffer; done: (err?: Error | null) => void } | undefined;
  private endHeld: ((err?: Error | null) => void) | undefined;

  attach(socket: Socket): void {
    if (this.destroyed) return;
    this.socket = socket;
    const held = this.held;
    this.held = undefined;
    if (held) socket.write(held.chunk, held.done);
    const end = this.endHeld;
    this.endHeld = undefined;
    if (end) socket.end(() => end());
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (err?: Error | null) => void): void {
    if (this.socket) this.socket.write(chunk, done);
    else this.held = { chunk, done };
  }

  override _final(done: (err?: Error | null) => void): void {
    if (this.socket) this.socket.end(() => done());
    else this.endHeld = done;
  }

  override _destroy(err: Error | null, done: (err?: Error | null) => void): void {
    this.held = undefined;
    this.endHeld = undefined;
    done(err);
  }
}
