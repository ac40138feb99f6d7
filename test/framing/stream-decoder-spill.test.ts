import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { type DecodedEvent, StreamDecoder } from '../../src/framing/stream-decoder.js';
import { FramePool } from '../../src/workers/frame-pool.js';
import { ownedChunks, resultForById, toolResultLine, until } from './helpers.js';

const enc = new TextEncoder();
const pools: FramePool[] = [];
const decoders: StreamDecoder[] = [];

afterEach(async () => {
  for (const d of decoders.splice(0)) d.close();
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

function newPool(): FramePool {
  const pool = new FramePool({ maxThreads: 1 });
  pools.push(pool);
  return pool;
}

const END = '{"jsonrpc":"2.0","method":"test/end"}\n';
const isEnd = (e: DecodedEvent) =>
  e.kind === 'message' && 'method' in e.message && e.message.method === 'test/end';

function decoder(
  events: DecodedEvent[],
  opts: { pool?: FramePool; spillBytes?: number; maxLineBytes?: number },
): StreamDecoder {
  const d = new StreamDecoder({
    pool: opts.pool,
    inlineMaxBytes: 100,
    ...(opts.spillBytes !== undefined ? { spillBytes: opts.spillBytes } : {}),
    ...(opts.maxLineBytes !== undefined ? { maxLineBytes: opts.maxLineBytes } : {}),
    resultFor: resultForById(300),
    onEvent: (e) => events.push(e),
  });
  decoders.push(d);
  return d;
}

async function decodeAll(
  bytes: Uint8Array,
  size: number,
  opts: { pool?: FramePool; spillBytes?: number; maxLineBytes?: number },
): Promise<DecodedEvent[]> {
  const events: DecodedEvent[] = [];
  const d = decoder(events, opts);
  for (const c of ownedChunks(bytes, size)) d.push(c);
  d.push(enc.encode(END));
  await until(() => events.some(isEnd));
  return events.filter((e) => !isEnd(e));
}

const line = fc.oneof(
  fc
    .tuple(fc.nat(30), fc.integer({ min: 50, max: 6000 }), fc.boolean(), fc.constantFrom('x', 'é', '🎉'))
    .map(([id, size, sdk, ch]) => toolResultLine(id, size, sdk, ch)),
  fc.nat(30).map((id) =>
    JSON.stringify({
      jsonrpc: '2.0',
      method: 'notifications/message',
      params: { n: id, pad: 'p'.repeat(3000) },
    }),
  ),
  fc.nat(30).map((id) => JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' })),
  fc.string({ maxLength: 3000 }).map((s) => `log: ${s.replace(/[\r\n]/g, '')}`),
  fc.constant(''),
);

describe('StreamDecoder: a long line handed to the pool while it arrives', () => {
  it('gives exactly the inline events, in order, oversize lines included (property)', async () => {
    const pool = newPool();
    await fc.assert(
      fc.asyncProperty(
        fc.array(line, { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 1, max: 2500 }),
        fc.integer({ min: 1, max: 3000 }),
        fc.boolean(),
        async (lines, size, spillBytes, crlf) => {
          const bytes = enc.encode(lines.map((l) => l + (crlf ? '\r\n' : '\n')).join(''));
          const inline = await decodeAll(bytes, size, { maxLineBytes: 4000 });
          const spilled = await decodeAll(bytes, size, { pool, spillBytes, maxLineBytes: 4000 });
          expect(spilled).toEqual(inline);
        },
      ),
      { numRuns: 60 },
    );
    expect(pool.stats).toMatchObject({ inlineTasks: 0, failures: 0 });
  });

  it('transfers the chunks of a long line before its newline, so the host holds little of it', async () => {
    const events: DecodedEvent[] = [];
    const d = decoder(events, { pool: newPool(), spillBytes: 256 * 1024 });
    const text = toolResultLine(3, 2 * 1024 * 1024);
    const chunks = ownedChunks(enc.encode(`${text}\n`), 65536);
    for (const c of chunks.slice(0, -1)) d.push(c);
    const held = chunks.slice(0, -1).filter((c) => c.byteLength > 0);
    // every chunk but the newest is with the worker already; the newest is kept back for the line's end
    expect(held).toEqual([chunks[chunks.length - 2]]);
    d.push(chunks[chunks.length - 1]!);
    await until(() => events.length === 1);
    expect(events[0]).toMatchObject({ kind: 'tool-result', id: 3 });
    const flat = (events[0] as Extract<DecodedEvent, { kind: 'tool-result' }>).text!;
    expect(flat).toMatch(/^x+… \[truncated \d+ bytes\]$/);
  });

  it('lets the worker drop a handed-over line at once when it passes the limit, and keeps its place', async () => {
    const pool = newPool();
    const events: DecodedEvent[] = [];
    const d = decoder(events, { pool, spillBytes: 64 * 1024, maxLineBytes: 1024 * 1024 });
    const long = toolResultLine(9, 3 * 1024 * 1024, true);
    const chunks = ownedChunks(enc.encode(`${long}\n{"jsonrpc":"2.0","id":2,"result":{}}\n`), 65536);
    const past = Math.ceil((1024 * 1024) / 65536) + 2;
    for (const c of chunks.slice(0, past)) d.push(c);
    // the hand-over's task ends (counted) while the rest of the line is still to come
    await until(() => pool.stats.workerTasks === 1);
    expect(events).toEqual([]);
    for (const c of chunks.slice(past)) d.push(c);
    await until(() => events.length === 2);
    expect(events).toEqual([
      { kind: 'oversize', bytes: long.length, id: 9 },
      { kind: 'message', message: { jsonrpc: '2.0', id: 2, result: {} } },
    ]);
  });

  it('ends the worker side of an unfinished line when the decoder closes', async () => {
    const pool = newPool();
    const events: DecodedEvent[] = [];
    const d = decoder(events, { pool, spillBytes: 64 * 1024 });
    const chunks = ownedChunks(enc.encode(toolResultLine(4, 1024 * 1024)), 65536);
    for (const c of chunks.slice(0, 8)) d.push(c);
    expect(chunks[0]!.byteLength).toBe(0);
    d.close();
    await until(() => pool.stats.workerTasks === 1);
    expect(events).toEqual([]);
  });

  it('holds a long line whole while the stream has no place in flight, and decodes it all the same', async () => {
    const events: DecodedEvent[] = [];
    const d = new StreamDecoder({
      pool: newPool(),
      inlineMaxBytes: 100,
      maxInFlight: 1,
      spillBytes: 64 * 1024,
      resultFor: () => undefined,
      onEvent: (e) => events.push(e),
    });
    decoders.push(d);
    const bytes = enc.encode(`${toolResultLine(1, 200_000)}\n${toolResultLine(2, 600_000)}\n`);
    const chunks = ownedChunks(bytes, 65536);
    for (const c of chunks.slice(0, 6)) d.push(c);
    // line 1 took the only place; line 2's first chunks stay here until it ends
    expect(chunks[4]!.byteLength).toBeGreaterThan(0);
    for (const c of chunks.slice(6)) d.push(c);
    await until(() => events.length === 2);
    expect(events.map((e) => e.kind === 'message' && 'id' in e.message && e.message.id)).toEqual([1, 2]);
  });
});
