import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LineFramer } from '../../src/framing/line-framer.js';
import { type DecodedEvent, StreamDecoder } from '../../src/framing/stream-decoder.js';
import { FramePool } from '../../src/workers/frame-pool.js';
import { cut, feed } from '../framing/helpers.js';

// The connection reads a server through StreamDecoder; the fuzz tests of test/fuzz/line-framer.fuzz.test.ts drive
// LineFramer. Both sit on the same splitter and classifier, and this holds them to the same events for any input
// and any chunking, so what is fuzzed there is what ships.

const enc = new TextEncoder();
const MAX_LINE = 400;

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Text with multi-byte UTF-8 (accents, CJK, emoji, combining marks) next to plain ASCII. */
const text = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.string({ unit: fc.constantFrom('é', '中', '🎉', 'e\u0301', 'x', ' ', '"', '\\'), maxLength: 20 }),
);
const id = fc.oneof(fc.nat(1000), text);
const message = fc.oneof(
  fc.record({ jsonrpc: fc.constant('2.0'), id, result: fc.record({ text }) }),
  fc.record({ jsonrpc: fc.constant('2.0'), method: text, params: fc.record({ text }) }),
  fc.record({ jsonrpc: fc.constant('2.0'), id, error: fc.record({ code: fc.integer(), message: text }) }),
);
const eol = fc.constantFrom('\n', '\r\n');

interface Item {
  bytes: Uint8Array;
  /** The message this line must come out as, if any. */
  message?: unknown;
  oversize?: boolean;
}

const messageLine = fc
  .tuple(message, eol, fc.constantFrom('', ' ', '\t'))
  .map(([m, end, pad]): Item => ({ bytes: enc.encode(`${pad}${JSON.stringify(m)}${end}`), message: m }));

const noiseLine = fc
  .oneof(
    text.map((t) => enc.encode(`log ${t}`)),
    // not JSON-RPC although it is JSON, or looks like it
    text.map((t) => enc.encode(JSON.stringify({ hello: t }))),
    text.map((t) => enc.encode(`{"jsonrpc":"2.0","id":${JSON.stringify(t)}`)),
    // raw bytes: invalid UTF-8, NUL, lone CR, a cut multi-byte character
    fc.uint8Array({ maxLength: 60 }).map((b) => b.filter((x) => x !== 0x0a)),
    text.map((t) => enc.encode(`${t}🎉`).slice(0, -1)),
    fc.constantFrom('', ' ', '\t \r').map((s) => enc.encode(s)),
  )
  .chain((bytes) => eol.map((end): Item => ({ bytes: concat([bytes, enc.encode(end)]) })));

const oversizeLine = fc
  .tuple(fc.option(id, { nil: undefined }), fc.nat(300), fc.constantFrom('z', 'é', '🎉'), eol)
  .map(([rid, extra, ch, end]): Item => {
    const fill = ch.repeat(Math.ceil((MAX_LINE + extra) / enc.encode(ch).length));
    const line =
      rid === undefined
        ? `log ${fill}`
        : JSON.stringify({ jsonrpc: '2.0', id: rid, result: { content: [{ type: 'text', text: fill }] } });
    return { bytes: enc.encode(`${line}${end}`), oversize: true };
  });

const stream = fc.record({
  items: fc.array(fc.oneof(messageLine, noiseLine, oversizeLine), { maxLength: 12 }),
  // a last line the server never ended: flushed by end()
  tail: fc.option(fc.oneof(messageLine, noiseLine), { nil: undefined }),
  offsets: fc.array(fc.nat(), { maxLength: 30 }),
});

/** The bytes of the stream, and the chunks it arrives in (each consumer gets its own copies). */
function bytesOf(items: Item[], tail: Item | undefined): Uint8Array {
  const last =
    tail === undefined
      ? []
      : [tail.bytes.subarray(0, tail.bytes.length - (tail.bytes.at(-2) === 0x0d ? 2 : 1))];
  return concat([...items.map((i) => i.bytes), ...last]);
}

const END = { jsonrpc: '2.0', method: 'test/end' };
const isEnd = (e: DecodedEvent) =>
  e.kind === 'message' && 'method' in e.message && e.message.method === END.method;

function decode(chunks: Uint8Array[]): DecodedEvent[] {
  const events: DecodedEvent[] = [];
  const decoder = new StreamDecoder({
    maxLineBytes: MAX_LINE,
    resultFor: () => undefined,
    onEvent: (e) => events.push(e),
  });
  for (const c of chunks) decoder.push(c);
  decoder.end();
  decoder.close();
  return events;
}

describe('StreamDecoder and LineFramer', () => {
  it('give the same events — messages, noise, oversize with its id — for any bytes cut anywhere', () => {
    const reached = { message: 0, noise: 0, oversizeWithId: 0, oversizeNoise: 0, crlf: 0, tail: 0 };
    fc.assert(
      fc.property(stream, ({ items, tail, offsets }) => {
        const bytes = bytesOf(items, tail);
        const framed = feed(new LineFramer({ maxLineBytes: MAX_LINE }), cut(bytes, offsets));
        const decoded = decode(cut(bytes, offsets));
        expect(decoded).toEqual(framed);
        if (framed.some((e) => e.kind === 'message')) reached.message++;
        if (framed.some((e) => e.kind === 'noise')) reached.noise++;
        if (framed.some((e) => e.kind === 'oversize' && e.id !== undefined)) reached.oversizeWithId++;
        if (framed.some((e) => e.kind === 'oversize' && e.id === undefined)) reached.oversizeNoise++;
        if (bytes.some((b, i) => b === 0x0d && bytes[i + 1] === 0x0a)) reached.crlf++;
        if (tail !== undefined) reached.tail++;
        // and both are right, not merely alike: every valid message in order, one oversize per long line
        const all = tail === undefined ? items : [...items, tail];
        const messages = all.flatMap((i) => (i.message === undefined ? [] : [i.message]));
        expect(framed.flatMap((e) => (e.kind === 'message' ? [e.message] : []))).toEqual(messages);
        expect(framed.filter((e) => e.kind === 'oversize')).toHaveLength(
          all.filter((i) => i.oversize).length,
        );
      }),
      { numRuns: 400 },
    );
    // a generator that stopped reaching a kind of line would make the property pass without testing it
    for (const [what, runs] of Object.entries(reached)) expect(runs, what).toBeGreaterThan(40);
  });

  it('agree byte by byte: a stream fed one byte at a time gives the events of the stream fed whole', () => {
    fc.assert(
      fc.property(stream, ({ items, tail }) => {
        const bytes = bytesOf(items, tail);
        const whole = feed(new LineFramer({ maxLineBytes: MAX_LINE }), [bytes.slice()]);
        const single = [...bytes].map((b) => Uint8Array.of(b));
        expect(decode(single)).toEqual(whole);
      }),
      { numRuns: 100 },
    );
  });

  it('give the same events on the pool path too, where lines over 16 bytes are decoded on worker threads', async () => {
    const pool = new FramePool({ maxThreads: 2 });
    try {
      await fc.assert(
        fc.asyncProperty(stream, async ({ items, offsets }) => {
          const bytes = bytesOf(items, undefined);
          const framed = feed(new LineFramer({ maxLineBytes: MAX_LINE }), cut(bytes, offsets));
          const events: DecodedEvent[] = [];
          const decoder = new StreamDecoder({
            pool,
            inlineMaxBytes: 16,
            maxLineBytes: MAX_LINE,
            resultFor: () => undefined,
            onEvent: (e) => events.push(e),
          });
          // the chunks are handed over (their memory may move to a worker), so the decoder gets its own copies
          for (const c of cut(bytes, offsets)) decoder.push(c);
          decoder.push(enc.encode(`${JSON.stringify(END)}\n`));
          const end = Date.now() + 10_000;
          while (!events.some(isEnd) && Date.now() < end) await new Promise((r) => setTimeout(r, 2));
          decoder.close();
          expect(events.at(-1)).toEqual({ kind: 'message', message: END });
          expect(events.slice(0, -1)).toEqual(framed);
        }),
        { numRuns: 60 },
      );
    } finally {
      await pool.close();
    }
  });

  it('report the id of an oversize response, and none for oversize noise', () => {
    const long = 'é'.repeat(MAX_LINE);
    const bytes = enc.encode(
      `${JSON.stringify({ jsonrpc: '2.0', id: 'ü-7', result: { t: long } })}\nlog ${long}\n`,
    );
    const expected = [
      { kind: 'oversize', bytes: bytes.indexOf(0x0a), id: 'ü-7' },
      { kind: 'oversize', bytes: bytes.length - bytes.indexOf(0x0a) - 2 },
    ];
    expect(feed(new LineFramer({ maxLineBytes: MAX_LINE }), cut(bytes, [7, 300, 801]))).toEqual(expected);
    expect(decode(cut(bytes, [7, 300, 801]))).toEqual(expected);
  });
});
