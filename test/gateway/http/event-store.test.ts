import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { SessionEventStore } from '../../../src/gateway/http/event-store.js';

const note = (n: number): JSONRPCMessage => ({
  jsonrpc: '2.0',
  method: 'notifications/message',
  params: { n },
});

/** The turn of the event loop ends: the store has counted what it stored in it. */
const endOfTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

async function replay(store: SessionEventStore, after: string) {
  const sent: Array<[string, JSONRPCMessage]> = [];
  const stream = await store.replayEventsAfter(after, { send: async (id, m) => void sent.push([id, m]) });
  return { stream, sent };
}

describe('the SSE replay buffer of a session', () => {
  it('replays the events of the same stream after the given id, priming events left out', async () => {
    const store = new SessionEventStore();
    const prime = await store.storeEvent('post-1', {} as JSONRPCMessage);
    const a = await store.storeEvent('post-1', note(1));
    await store.storeEvent('get', note(2));
    const c = await store.storeEvent('post-1', note(3));
    expect(await store.getStreamIdForEventId(prime)).toBe('post-1');
    expect(await replay(store, prime)).toEqual({
      stream: 'post-1',
      sent: [
        [a, note(1)],
        [c, note(3)],
      ],
    });
    expect(await replay(store, a)).toEqual({ stream: 'post-1', sent: [[c, note(3)]] });
  });

  it('drops the oldest past its count or bytes, and an id it dropped is unknown', async () => {
    const store = new SessionEventStore({ maxEvents: 2, maxBytes: 10_000 });
    const first = await store.storeEvent('s', note(1));
    await store.storeEvent('s', note(2));
    const third = await store.storeEvent('s', note(3));
    expect(await store.getStreamIdForEventId(first)).toBeUndefined();
    await expect(store.replayEventsAfter(first, { send: async () => {} })).rejects.toThrow('no longer kept');
    const big: JSONRPCMessage = { jsonrpc: '2.0', method: 'x', params: { text: 'y'.repeat(20_000) } };
    const huge = await store.storeEvent('s', big);
    await endOfTurn();
    // The newest stays, however large: it may be the answer a client is waiting for.
    expect(await store.getStreamIdForEventId(third)).toBeUndefined();
    expect(await store.getStreamIdForEventId(huge)).toBe('s');
  });

  it('forgets the events it is told no client can ask for, and their bytes with them', async () => {
    const store = new SessionEventStore({ maxEvents: 10, maxBytes: 150 });
    const kept = await store.storeEvent('get', note(1));
    const prime = await store.storeEvent('post-1', {} as JSONRPCMessage);
    const answer = await store.storeEvent('post-1', note(2));
    await endOfTurn();
    store.forget([prime, answer, 'no-such-id']);
    expect(store.size).toBe(1);
    expect(await store.getStreamIdForEventId(answer)).toBeUndefined();
    // the forgotten bytes no longer count: one more event fits beside the kept one, which would otherwise go
    await store.storeEvent('get', note(3));
    await endOfTurn();
    expect(await store.getStreamIdForEventId(kept)).toBe('get');
    expect(store.size).toBe(2);
  });

  it('never serializes an event forgotten in the turn it was stored in', async () => {
    const store = new SessionEventStore();
    let serialized = 0;
    const toJSON = () => {
      serialized += 1;
      return {};
    };
    const counted = (n: number) =>
      ({ jsonrpc: '2.0', id: n, result: { toJSON } }) as unknown as JSONRPCMessage;
    const sentAsJson = await store.storeEvent('post-1', counted(1));
    const streamed = await store.storeEvent('post-2', counted(2));
    store.forget([sentAsJson]);
    await endOfTurn();
    // only the event still kept was measured
    expect(serialized).toBe(1);
    expect(await store.getStreamIdForEventId(streamed)).toBe('post-2');
  });
});
