import type { ServerResponse } from 'node:http';
import { jsonObject, type Read, readEvent } from './post-hold.js';

/**
 * What one event stream holds for a client that does not read it, before notifications are dropped: 4 MiB, what
 * a session keeps for a client that reconnects (event-store.ts) — a live stream gains nothing by holding more
 * than a replay could give back — and the default cap of one tool result, so an answer fits behind it.
 */
export const STREAM_QUEUE_BYTES = 4 * 1024 * 1024;
/**
 * What a stream may hold at most of what is never dropped but answers (a server's requests, events that do not
 * parse), past which it is ended: 16 MiB, as what we hold for one server that does not read (`limits.queue`).
 */
export const STREAM_HARD_BYTES = 16 * 1024 * 1024;

/**
 * What a stream whose client fell behind lost, told once per stream: `NOTIFICATIONS_DROPPED` (it went on without
 * them) or `STREAM_ENDED` (even what may not be dropped could not be kept, so it was ended); `dropped`
 * notifications, `droppedBytes` of events.
 */
export interface StreamShed {
  readonly code: 'NOTIFICATIONS_DROPPED' | 'STREAM_ENDED';
  readonly dropped: number;
  readonly droppedBytes: number;
}

const EMPTY = new Uint8Array(0);

/** What an event is worth keeping: `noise` and `droppable` may go (only the latter is told), the rest may not. */
type Worth = 'noise' | 'droppable' | 'answer' | 'kept';

/**
 * Writes what was held in one write, then the rest of the stream as it comes, and ends the response. The
 * transport's stream is read as fast as it gives (the SDK's queue has no bound, so whatever we leave there grows
 * without one); what the client does not take yet waits in a queue of our own, bounded by bytes: past
 * STREAM_QUEUE_BYTES, notifications (messages without an id: progress, log messages, list changes) are dropped;
 * answers are always kept (a client waits for each; one per request, each capped in size); anything else is kept
 * up to STREAM_HARD_BYTES, past which the stream is ended. `onShed` hears once, when the queue drains, the stream
 * ends or the response closes, whichever is first.
 */
export async function passOn(
  res: ServerResponse,
  reader: ReadableStreamDefaultReader<Uint8Array>,
  from: { held: Uint8Array[]; pending: Promise<Read> | undefined },
  onShed?: (shed: StreamShed) => void,
): Promise<void> {
  const out = new Outbox(res, onShed);
  if (from.held.length > 0) out.offer(from.held.length === 1 ? from.held[0]! : Buffer.concat(from.held));
  let pending = from.pending;
  while (pending) {
    const next = await pending;
    if (!next || next.done || res.destroyed) break;
    if (!out.offer(next.value)) {
      out.tell('STREAM_ENDED');
      res.destroy();
      return;
    }
    pending = reader.read().catch(() => undefined);
  }
  // Nothing more can be dropped: told now, not once a client that may never read again has read the rest.
  out.tell('NOTIFICATIONS_DROPPED');
  await out.flushed();
  if (!res.destroyed) res.end();
}

/** The chunks a response has not taken yet, written as its socket drains. */
class Outbox {
  /** The chunks not written yet, from `head` on (shifting a long array would cost each write its length). */
  private queue: Uint8Array[] = [];
  private head = 0;
  private queued = 0;
  /** Whether the response said it is full: nothing more is written until it drains. */
  private full = false;
  private dropped = 0;
  private droppedBytes = 0;
  private told = false;
  private emptied: (() => void) | undefined;

  constructor(
    private readonly res: ServerResponse,
    private readonly onShed: ((shed: StreamShed) => void) | undefined,
  ) {
    res.once('close', () => {
      this.queue = [];
      this.head = 0;
      this.queued = 0;
      this.tell('NOTIFICATIONS_DROPPED');
      this.emptied?.();
    });
  }

  /** Takes a chunk of the stream: written, queued, or dropped; false when it cannot be kept. */
  offer(chunk: Uint8Array): boolean {
    if (this.res.destroyed) return true;
    if (!this.full && this.queued === 0) {
      this.write(chunk);
      return true;
    }
    // Only a stream over its bound has its events read: one whose client keeps up costs no parse.
    if (this.queued + chunk.byteLength > STREAM_QUEUE_BYTES) {
      const worth = worthOf(chunk);
      if (worth === 'noise') return true;
      if (worth === 'droppable') {
        this.dropped += 1;
        this.droppedBytes += chunk.byteLength;
        return true;
      }
      if (worth === 'kept' && this.queued + chunk.byteLength > STREAM_HARD_BYTES) return false;
    }
    this.queue.push(chunk);
    this.queued += chunk.byteLength;
    return true;
  }

  /** Resolves once everything queued was handed to the response (or it closed). */
  flushed(): Promise<void> {
    if (this.queued === 0 || this.res.destroyed) return Promise.resolve();
    return new Promise((resolve) => {
      this.emptied = resolve;
    });
  }

  /** Tells what was dropped, once per stream, and only if anything was. */
  tell(code: StreamShed['code']): void {
    if (this.told || (code === 'NOTIFICATIONS_DROPPED' && this.dropped === 0)) return;
    this.told = true;
    this.onShed?.({ code, dropped: this.dropped, droppedBytes: this.droppedBytes });
  }

  private write(chunk: Uint8Array): void {
    if (this.res.write(chunk)) return;
    this.full = true;
    this.res.once('drain', this.drain);
  }

  private readonly drain = (): void => {
    this.full = false;
    while (!this.full && this.head < this.queue.length) {
      const chunk = this.queue[this.head]!;
      this.queue[this.head++] = EMPTY;
      this.queued -= chunk.byteLength;
      this.write(chunk);
    }
    if (this.head < this.queue.length) {
      if (this.head > 1024 && this.head * 2 > this.queue.length) {
        this.queue = this.queue.slice(this.head);
        this.head = 0;
      }
      return;
    }
    this.queue = [];
    this.head = 0;
    this.tell('NOTIFICATIONS_DROPPED');
    this.emptied?.();
  };
}

/**
 * What one chunk of the transport's stream is worth keeping: a comment (its keep-alive, a sign of life a client
 * that is not reading does not need) and a notification may be dropped, an answer never; a request, a priming
 * event and a chunk that does not read as one event are kept.
 */
function worthOf(chunk: Uint8Array): Worth {
  const event = readEvent(chunk);
  if (event === undefined) return 'kept';
  if (event.kind === 'comment') return 'noise';
  if (event.data.length === 0) return 'kept';
  const m = jsonObject(event.data.toString('utf8'));
  if (m === undefined) return 'kept';
  if (typeof m.method === 'string') return 'id' in m ? 'kept' : 'droppable';
  return 'result' in m || 'error' in m ? 'answer' : 'kept';
}
