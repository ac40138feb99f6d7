import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LineFramer } from '../../src/framing/line-framer.js';
import { cut, feed } from '../framing/helpers.js';

// test/framing/line-framer.test.ts covers chunking of well-formed messages and `log …` noise. These add what a
// hostile or broken server sends: arbitrary bytes (invalid UTF-8, NUL, lone CR), truncated JSON, lines over a
// small limit, all cut at random points.

const enc = new TextEncoder();

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const text = fc.string({ unit: 'grapheme', maxLength: 30 });
const message = fc.oneof(
  fc.record({ jsonrpc: fc.constant('2.0'), id: fc.oneof(fc.nat(), text), result: fc.record({ text }) }),
  fc.record({ jsonrpc: fc.constant('2.0'), method: text }),
  fc.record({
    jsonrpc: fc.constant('2.0'),
    id: fc.nat(),
    error: fc.record({ code: fc.integer(), message: text }),
  }),
);
const messageLine = message.map((m) => ({ message: m, bytes: enc.encode(`${JSON.stringify(m)}\n`) }));

// Bytes that look like JSON-RPC, so that the parser and the id sniffer see near misses, not only junk.
const jsonish = fc.constantFrom(
  '{"jsonrpc":"2.0","id":',
  '{"result":',
  '"',
  '\\',
  '\\u12',
  '}',
  '{',
  ':',
  ',',
  '\r',
);
const anyBytes = fc.uint8Array({ maxLength: 200 });
const noNewline = (b: Uint8Array) => b.filter((x) => x !== 0x0a);

/** A line that cannot be a JSON-RPC message: junk bytes that do not start like an object, or a truncated one. */
const garbageLine = fc
  .oneof(
    fc
      .tuple(fc.constantFrom(0x00, 0x78, 0xff, 0xc3, 0x5b, 0x22), anyBytes)
      .map(([first, rest]) => concat([Uint8Array.of(first), noNewline(rest)])),
    fc.tuple(message, fc.nat()).map(([m, n]) => {
      const s = enc.encode(JSON.stringify(m));
      return s.subarray(0, n % s.length); // strictly shorter than the whole object: never valid JSON
    }),
    fc.array(jsonish, { maxLength: 12 }).map((parts) => enc.encode(`x${parts.join('')}`)),
  )
  .map((b) => concat([b, enc.encode('\n')]));

describe('LineFramer under random input', () => {
  it('never throws on arbitrary bytes cut anywhere, and reports only the three event kinds', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            anyBytes,
            jsonish.map((s) => enc.encode(s)),
            fc.constant(enc.encode('\n')),
          ),
          {
            maxLength: 20,
          },
        ),
        fc.array(fc.nat(), { maxLength: 20 }),
        fc.option(fc.integer({ min: 1, max: 300 }), { nil: undefined }),
        (parts, offsets, maxLineBytes) => {
          const framer = new LineFramer(maxLineBytes === undefined ? {} : { maxLineBytes });
          const events = feed(framer, cut(concat(parts), offsets));
          for (const e of events) {
            expect(['message', 'noise', 'oversize']).toContain(e.kind);
            if (e.kind === 'message') expect((e.message as { jsonrpc?: unknown }).jsonrpc).toBe('2.0');
            if (e.kind === 'oversize') expect(e.bytes).toBeGreaterThan(maxLineBytes ?? 0);
          }
          expect(framer.bufferedBytes).toBe(0);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('after any garbage line, the next valid message still comes out whole', () => {
    fc.assert(
      fc.property(
        garbageLine,
        messageLine,
        fc.array(fc.nat(), { maxLength: 10 }),
        (garbage, next, offsets) => {
          const events = feed(new LineFramer(), cut(concat([garbage, next.bytes]), offsets));
          expect(events.at(-1)).toEqual({ kind: 'message', message: next.message });
          expect(events.filter((e) => e.kind === 'message')).toHaveLength(1);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('garbage, oversize lines and valid messages interleaved: exactly the valid messages, in order', () => {
    const item = fc.oneof(
      messageLine.map((m) => ({ ...m, valid: true })),
      garbageLine.map((bytes) => ({ bytes, valid: false, message: undefined })),
      // a well-formed response far over the limit must be dropped, never delivered nor desync the stream
      fc.nat({ max: 3000 }).map((n) => ({
        bytes: enc.encode(`{"jsonrpc":"2.0","id":${n},"result":{"t":"${'z'.repeat(2000 + n)}"}}\n`),
        valid: false,
        message: undefined,
      })),
    );
    fc.assert(
      fc.property(
        fc.array(item, { maxLength: 10 }),
        fc.array(fc.nat(), { maxLength: 25 }),
        (items, offsets) => {
          const framer = new LineFramer({ maxLineBytes: 1500 });
          const events = feed(framer, cut(concat(items.map((i) => i.bytes)), offsets));
          const got = events.flatMap((e) => (e.kind === 'message' ? [e.message] : []));
          expect(got).toEqual(items.filter((i) => i.valid).map((i) => i.message));
          const big = events.filter((e) => e.kind === 'oversize');
          expect(big).toHaveLength(items.filter((i) => i.bytes.length - 1 > 1500).length);
        },
      ),
      { numRuns: 300 },
    );
  });
});
