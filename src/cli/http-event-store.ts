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
 * large, so the answer a client is waiting for can be replayed.
 */
export class SessionEventStore implements EventStore {
  private readonly events = new Map<string, Stored>();
  private seq = 0;
  private bytes = 0;

  constructor(private readonly limits: EventStoreLimits = DEFAULT_LIMITS) {}

  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    this.seq += 1;
    const id = String(this.seq);
    const bytes = JSON.stringify(message).length;
    this.events.set(id, { streamId, message, bytes });
    this.bytes += bytes;
    for (const [old, e] of this.events) {
      const over = this.events.size > this.limits.maxEvents || this.bytes > this.limits.maxBytes;
      if (!over || old === id) break;
      this.events.delete(old);
      this.bytes -= e.bytes;
    }
    return id;
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
