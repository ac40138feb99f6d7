import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type CappedToolResult, type DecodedEvent, StreamDecoder } from '../../src/framing/stream-decoder.js';
import { FramePool } from '../../src/workers/frame-pool.js';
import { ownedChunks, resultForById, toolResultLine, until } from './helpers.js';

const enc = new TextEncoder();
const pools: FramePool[] = [];
const decoders: StreamDecoder[] = [];

function newPool(): FramePool {
  const pool = new FramePool({ maxThreads: 2 });
  pools.push(pool);
  return pool;
}

afterEach(async () => {
  for (const d of decoders.splice(0)) d.close();
  await Promise.all(pools.splice(0).map((p) => p.close()));
  vi.restoreAllMocks();
});

const END = { jsonrpc: '2.0', method: 'test/end' };
const isEnd = (e: DecodedEvent) =>
  e.kind === 'message' && 'method' in e.message && e.message.method === 'test/end';

/** Decodes `bytes` chunked at `size` (fresh owned chunks) and resolves every event up to the end marker. */
async function decodeAll(
  bytes: Uint8Array,
  size: number,
  opts: { pool?: FramePool; inlineMaxBytes?: number; maxBytes?: number; maxLineBytes?: number },
): Promise<DecodedEvent[]> {
  const events: DecodedEvent[] = [];
  const decoder = new StreamDecoder({
    pool: opts.pool,
    ...(opts.inlineMaxBytes !== undefined ? { inlineMaxBytes: opts.inlineMaxBytes } : {}),
    ...(opts.maxLineBytes !== undefined ? { maxLineBytes: opts.maxLineBytes } : {}),
    resultFor: resultForById(opts.maxBytes ?? 300),
    onEvent: (e) => events.push(e),
  });
  decoders.push(decoder);
  for (const c of ownedChunks(bytes, size)) decoder.push(c);
  decoder.push(enc.encode(`${JSON.stringify(END)}\n`));
  await until(() => events.some(isEnd));
  return events.filter((e) => !isEnd(e));
}

const line = fc.oneof(
  fc
    .tuple(fc.nat(30), fc.integer({ min: 50, max: 3000 }), fc.boolean(), fc.constantFrom('x', 'é', '🎉'))
    .map(([id, size, sdk, ch]) => toolResultLine(id, size, sdk, ch)),
  fc.nat(30).map((id) => JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32000, message: 'nope' } })),
  fc.nat(30).map((id) =>
    JSON.stringify({
      jsonrpc: '2.0',
      id,
      _meta: { pad: 'm'.repeat(2000) },
      result: { content: [{ type: 'text', text: 'late key' }] },
    }),
  ),
  fc.nat(30).map((id) => JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' })),
  fc.string({ maxLength: 400 }).map((s) => `log: ${s.replace(/[\r\n]/g, '')}`),
  fc.constant(''),
  fc.constant('{"jsonrpc":"2.0","id":5,"result":{"content":[{"type":"text","text":"trunc'),
);

describe('StreamDecoder', () => {
  it('gives exactly the inline events on the pool path, same order and strings (property)', async () => {
    const pool = newPool();
    await fc.assert(
      fc.asyncProperty(
        fc.array(line, { minLength: 1, maxLength: 15 }),
        fc.integer({ min: 1, max: 5000 }),
        fc.boolean(),
        async (lines, size, crlf) => {
          const bytes = enc.encode(lines.map((l) => l + (crlf ? '\r\n' : '\n')).join(''));
          const inline = await decodeAll(bytes, size, {});
          const pooled = await decodeAll(bytes, size, { pool, inlineMaxBytes: 100 });
          expect(pooled).toEqual(inline);
        },
      ),
      { numRuns: 40 },
    );
    expect(pool.stats).toMatchObject({ inlineTasks: 0, failures: 0 });
    expect(pool.stats.workerTasks).toBeGreaterThan(40);
  });

  it('flattens or caps claimed results on both paths, and leaves errors and unclaimed results as messages', async () => {
    const lines = [
      toolResultLine(3, 5000),
      toolResultLine(4, 5000, true),
      toolResultLine(5, 5000),
      JSON.stringify({ jsonrpc: '2.0', id: 6, error: { code: 1, message: 'bad' } }),
    ];
    const bytes = enc.encode(`${lines.join('\n')}\n`);
    for (const opts of [{}, { pool: newPool(), inlineMaxBytes: 1000 }]) {
      const events = await decodeAll(bytes, 4096, { ...opts, maxBytes: 100 });
      expect(events.map((e) => e.kind)).toEqual(['tool-result', 'tool-result', 'message', 'message']);
      const [text, capped] = events as Extract<DecodedEvent, { kind: 'tool-result' }>[];
      expect(text!.id).toBe(3);
      expect(text!.text).toMatch(/^x+… \[truncated \d+ bytes\]$/);
      expect(Buffer.byteLength(text!.text!)).toBeLessThanOrEqual(100);
      expect(capped!.id).toBe(4);
      expect((capped!.result as CappedToolResult).content[0]!.text).toMatch(/^x+… \[truncated \d+ bytes\]$/);
    }
  });

  it('keeps a large message ahead of the small ones that follow it', async () => {
    const pool = newPool();
    const small = Array.from({ length: 50 }, (_, i) => JSON.stringify({ jsonrpc: '2.0', method: `n/${i}` }));
    const bytes = enc.encode(`${[toolResultLine(2, 1024 * 1024), ...small].join('\n')}\n`);
    const events = await decodeAll(bytes, 65536, { pool });
    expect(events).toHaveLength(51);
    expect(events[0]).toMatchObject({ kind: 'message', message: { id: 2 } });
    expect(
      events.slice(1).map((e) => (e.kind === 'message' && 'method' in e.message ? e.message.method : '')),
    ).toEqual(small.map((_, i) => `n/${i}`));
  });

  it('pauses the stream at maxInFlight large lines and resumes once they drain', async () => {
    const calls: string[] = [];
    const events: DecodedEvent[] = [];
    const decoder = new StreamDecoder({
      pool: newPool(),
      inlineMaxBytes: 1000,
      maxInFlight: 2,
      resultFor: () => undefined,
      onEvent: (e) => events.push(e),
      onPause: () => calls.push(`pause@${events.length}`),
      onResume: () => calls.push('resume'),
    });
    decoders.push(decoder);
    const bytes = enc.encode(Array.from({ length: 6 }, (_, i) => `${toolResultLine(i, 50_000)}\n`).join(''));
    for (const c of ownedChunks(bytes, 65536)) decoder.push(c);
    expect(calls).toEqual(['pause@0']);
    await until(() => events.length === 6);
    expect(calls[calls.length - 1]).toBe('resume');
    expect(events.map((e) => (e.kind === 'message' && 'id' in e.message ? e.message.id : -1))).toEqual([
      0, 1, 2, 3, 4, 5,
    ]);
  });

  it('delivers nothing after close, and close is idempotent', async () => {
    const events: DecodedEvent[] = [];
    const pool = newPool();
    const runs: Array<Promise<unknown>> = [];
    const decoder = new StreamDecoder({
      pool: {
        run: (task, transfer) => {
          const run = pool.run(task, transfer);
          runs.push(run);
          return run;
        },
      },
      inlineMaxBytes: 100,
      resultFor: () => ({ mode: 'text', maxBytes: 100 }),
      onEvent: (e) => events.push(e),
    });
    for (const c of ownedChunks(enc.encode(`${toolResultLine(1, 200_000)}\n`), 65536)) decoder.push(c);
    expect(runs).toHaveLength(1);
    decoder.close();
    decoder.close();
    decoder.push(enc.encode('{"jsonrpc":"2.0","method":"late"}\n'));
    decoder.end();
    // The worker's answer is the only thing that could still deliver: once it is in (and the decoder, which
    // subscribed first, has seen it), nothing is left.
    await expect(runs[0]).resolves.toMatchObject({ kind: 'tool-result', id: 1 });
    expect(runs).toHaveLength(1);
    expect(events).toEqual([]);
  });

  it('turns a worker failure into an ERROR tool result or noise, and loses nothing after it', async () => {
    class FailingPool extends FramePool {
      override run(): Promise<never> {
        return Promise.reject(new Error('worker exploded'));
      }
    }
    const pool = new FailingPool();
    pools.push(pool);
    const bytes = enc.encode(
      `${toolResultLine(3, 5000)}\n${toolResultLine(2, 5000)}\n{"jsonrpc":"2.0","id":2,"result":{}}\n`,
    );
    const events = await decodeAll(bytes, 65536, { pool, inlineMaxBytes: 1000 });
    expect(events).toEqual([
      {
        kind: 'tool-result',
        id: 3,
        failed: {
          code: 'INTERNAL',
          message: 'could not decode the tool result: worker failed: worker exploded',
        },
      },
      { kind: 'noise', line: toolResultLine(2, 5000).slice(0, 200) },
      { kind: 'message', message: { jsonrpc: '2.0', id: 2, result: {} } },
    ]);
  });

  it('transfers chunks it owns, copies the one holding the newline, never touches shared buffers', async () => {
    const pool = newPool();
    const events: DecodedEvent[] = [];
    const decoder = new StreamDecoder({
      pool,
      inlineMaxBytes: 1000,
      resultFor: () => undefined,
      onEvent: (e) => events.push(e),
    });
    decoders.push(decoder);
    const bytes = enc.encode(`${toolResultLine(1, 150_000)}\n${toolResultLine(2, 50)}\n`);
    const chunks = ownedChunks(bytes, 65536);
    const slab = new Uint8Array(bytes.length + 10);
    slab.set(bytes, 5);
    for (const c of chunks) decoder.push(c);
    decoder.push(slab.subarray(5, 5 + bytes.length));
    await until(() => events.length === 4);
    expect(chunks[0]!.byteLength).toBe(0); // transferred
    expect(chunks[chunks.length - 1]!.byteLength).toBeGreaterThan(0); // held the newline: copied
    expect(slab.byteLength).toBe(bytes.length + 10); // a view into a larger buffer: copied
    expect(events.map((e) => e.kind === 'message' && 'id' in e.message && e.message.id)).toEqual([
      1, 2, 1, 2,
    ]);
  });

  it('survives an onEvent that throws and reports it as a warning', async () => {
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const seen: DecodedEvent[] = [];
    const decoder = new StreamDecoder({
      resultFor: () => undefined,
      onEvent: (e) => {
        seen.push(e);
        throw new Error('consumer bug');
      },
    });
    decoder.push(enc.encode('{"jsonrpc":"2.0","method":"a"}\nnoise\n{"jsonrpc":"2.0","method":"b"}\n'));
    expect(seen).toHaveLength(3);
    expect(decoder.noiseCount).toBe(1);
    expect(warn).toHaveBeenCalledTimes(3);
  });

  it('reports an oversize line in order with its id, on the pool path too', async () => {
    const bytes = enc.encode(`${toolResultLine(9, 5000, true)}\n{"jsonrpc":"2.0","id":2,"result":{}}\n`);
    const events = await decodeAll(bytes, 1000, { pool: newPool(), inlineMaxBytes: 100, maxLineBytes: 2000 });
    expect(events).toEqual([
      { kind: 'oversize', bytes: toolResultLine(9, 5000, true).length, id: 9 },
      { kind: 'message', message: { jsonrpc: '2.0', id: 2, result: {} } },
    ]);
  });
});
