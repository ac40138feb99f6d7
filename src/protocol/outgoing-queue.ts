import type { Writable } from 'node:stream';
import { SupervisorError } from './errors.js';

/** What became of one message handed to the queue. */
export type WriteOutcome = 'sent' | 'full' | 'closed';

/**
 * Everything we write to one server's stdin, bounded. Bytes count from the moment a message is handed over until
 * the kernel took them; while the stream asks us to wait (`write()` said false) messages wait here for `'drain'`.
 * A message that would take the count past the bound is refused, and from then on every message is: a server
 * that has stopped reading will be killed, and nothing we could still queue for it would help.
 */
export class OutgoingQueue {
  private queued = 0;
  /**
   * The lines not yet handed to the stream: those of the current turn of the loop (many calls sent in one turn go
   * out in one `write()`), or everything since the stream asked us to wait.
   */
  private batch: string[] = [];
  private batchBytes = 0;
  private flushQueued = false;
  private blocked = false;
  private latched = false;
  private dropped = 0;
  private queuedWhenFull = 0;
  private readonly flushTick = () => {
    this.flushQueued = false;
    if (!this.blocked) this.flush();
  };

  constructor(
    private readonly stream: Writable,
    private readonly limitBytes: number,
    private readonly onFull: (queuedBytes: number) => void,
  ) {
    stream.on('drain', () => {
      this.blocked = false;
      this.flush();
    });
  }

  /** Bytes handed over and not yet taken by the server. */
  get queuedBytes(): number {
    return this.queued;
  }

  /** True once the bound was hit; it stays true. */
  get full(): boolean {
    return this.latched;
  }

  /** Messages refused since the bound was hit. */
  get droppedMessages(): number {
    return this.dropped;
  }

  get limit(): number {
    return this.limitBytes;
  }

  /** What was queued when the bound was hit (0 before). */
  get queuedAtFull(): number {
    return this.queuedWhenFull;
  }

  /**
   * Queues one line, written with the rest of this turn's once the turn's I/O is done; refuses it (and everything
   * after it) when it would not fit. One message always fits an empty queue.
   */
  write(line: string): WriteOutcome {
    if (this.latched) {
      this.dropped++;
      return 'full';
    }
    if (this.stream.destroyed || !this.stream.writable) return 'closed';
    const n = Buffer.byteLength(line, 'utf8');
    if (this.queued > 0 && this.queued + n > this.limitBytes) {
      this.latched = true;
      this.dropped++;
      const queued = this.queued;
      this.queuedWhenFull = queued;
      // Nothing queued can reach a server that reads nothing and will be killed: let it all go now, the stream's
      // own buffer too, rather than hold it until the process is gone.
      this.batch = [];
      this.batchBytes = 0;
      this.stream.destroy();
      this.onFull(queued);
      return 'full';
    }
    this.queued += n;
    this.batch.push(line);
    this.batchBytes += n;
    if (!this.blocked && !this.flushQueued) {
      this.flushQueued = true;
      // After this turn's I/O: every request that arrived in one poll of the loop (the answers read from a
      // server, the POSTs of many HTTP sockets) and the calls their continuations send go out in one write().
      setImmediate(this.flushTick);
    }
    return 'sent';
  }

  /** Hands every waiting message to the stream at once, for a close that ends the stream behind them. */
  release(): void {
    this.flush();
  }

  private flush(): void {
    if (this.batch.length === 0) return;
    const n = this.batchBytes;
    const lines = this.batch;
    this.batch = [];
    this.batchBytes = 0;
    if (this.latched || this.stream.destroyed || !this.stream.writable) {
      this.queued -= n;
      return;
    }
    try {
      // The callback runs once the bytes left us, or with an error when the pipe broke: either way they are gone.
      const more = this.stream.write(lines.length === 1 ? lines[0]! : lines.join(''), () => {
        this.queued -= n;
      });
      this.blocked = !more;
    } catch {
      this.queued -= n;
    }
  }
}

/** The error every call to a server whose queue is full resolves with. */
export function queueFullError(
  serverId: string,
  queue: Pick<OutgoingQueue, 'queuedAtFull' | 'limit'>,
): SupervisorError {
  return new SupervisorError(
    'QUEUE_FULL',
    `server '${serverId}' stopped reading its input: ${formatBytes(queue.queuedAtFull)} queued for it, ` +
      `over its bound of ${formatBytes(queue.limit)}`,
  );
}

function formatBytes(n: number): string {
  const MiB = 1024 * 1024;
  if (n >= MiB) return `${Number((n / MiB).toFixed(1))} MiB`;
  return `${Number((n / 1024).toFixed(1))} KiB`;
}
