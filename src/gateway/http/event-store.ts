import type { EventStore } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** Bounds of one session's replay buffer: enough to bridge a dropped connection, not a history. */
export interface EventStoreLimits {
  maxEvents: number;
  maxBytes: number;
}

const DEFAULT_LIMITS: EventStoreLimits = { maxEvents: 1000, maxBytes: 4 * 1024 * 1024 };

interface Stored {
  streamId: string;
  message: JSONRPCMessage;
  bytes: number;
}

/**
 * One session's SSE events, kept so a client whose stream dropped can reconnect with `Last-Event-ID` and get
 * what it missed (the SDK's transport asks it). Bounded by count and by bytes, oldest dropped first; an id that
 * was dropped is unknown, and the SDK answers that reconnect with 400. The newest event is always kept, however
 * large, so the answer a client is waiting for can be replayed. Bytes are counted at the end of the turn of the
 * event loop an event was stored in: most answers go out as one JSON body and are forgotten before then, and
 * serializing a large one again here would cost the loop as much as its own serialization did.
 */
export class SessionEventStore implements EventStore {
  private readonly events = new Map<string, Stored>();
  private seq = 0;
  /** The bytes of the kept events counted so far. */
  private bytes = 0;
  /** Events stored this turn, their bytes not yet counted. */
  private uncounted: string[] = [];
  private readonly countSoon = () => this.count();

  constructor(private readonly limits: EventStoreLimits = DEFAULT_LIMITS) {}

  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    this.seq += 1;
    const id = String(this.seq);
    this.events.set(id, { streamId, message, bytes: 0 });
    if (this.uncounted.push(id) === 1) setImmediate(this.countSoon);
    this.trim();
    return id;
  }

  /** Counts the bytes of this turn's events that are still kept, then trims to the bounds. */
  private count(): void {
    for (const id of this.uncounted) {
      const e = this.events.get(id);
      if (!e) continue;
      e.bytes = JSON.stringify(e.message).length;
      this.bytes += e.bytes;
    }
    this.uncounted = [];
    this.trim();
  }

  /** Drops the oldest events while over a bound, never the newest. */
  private trim(): void {
    let left = this.events.size;
    for (const [old, e] of this.events) {
      if (left === 1 || (left <= this.limits.maxEvents && this.bytes <= this.limits.maxBytes)) break;
      this.events.delete(old);
      this.bytes -= e.bytes;
      left -= 1;
    }
  }

  /** Events kept now. */
  get size(): number {
    return this.events.size;
  }

  /**
   * Drops events no client can ask for again: those of a POST whose answer went out as one JSON body, whose ids
   * its client never saw.
   */
  forget(ids: Iterable<string>): void {
    for (const id of ids) {
      const e = this.events.get(id);
      if (!e) continue;
      this.events.delete(id);
      this.bytes -= e.bytes;
    }
  }

  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    return this.events.get(eventId)?.streamId;
  }

  async replayEventsAfter(
    lastEventId: string,
    { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> },
  ): Promise<string> {
    const last = this.events.get(lastEventId);
    if (!last) throw new Error(`event ${lastEventId} is no longer kept`);
    let after = false;
    for (const [id, e] of this.events) {
      if (id === lastEventId) after = true;
      // A priming event (empty, only there to give the client an id) carries nothing to replay.
      else if (after && e.streamId === last.streamId && Object.keys(e.message).length > 0)
        await send(id, e.message);
    }
    return last.streamId;
  }
}
