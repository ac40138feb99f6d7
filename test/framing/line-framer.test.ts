import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type FrameEvent, LineFramer } from '../../src/framing/line-framer.js';
import { cut, feed } from './helpers.js';

const enc = new TextEncoder();
const MiB = 1024 * 1024;

const text = fc.string({ unit: 'binary', maxLength: 40 });
const message = fc.oneof(
  fc.record({ jsonrpc: fc.constant('2.0'), id: fc.oneof(fc.nat(), text), result: fc.record({ text }) }),
  fc.record({ jsonrpc: fc.constant('2.0'), method: text, params: fc.record({ note: text }) }),
  fc.record({
    jsonrpc: fc.constant('2.0'),
    id: fc.nat(),
    error: fc.record({ code: fc.integer(), message: text }),
  }),
);
// a log line can hold anything but a newline; it starts with a letter so it is never JSON
const noise = text.map((t) => `log ${t.replace(/[\r\n]/g, ' ')}`);
const item = fc.oneof(
  message.map((m) => ({ kind: 'message' as const, value: m })),
  noise.map((n) => ({ kind: 'noise' as const, value: n })),
  fc.constant({ kind: 'blank' as const, value: '' }),
);

describe('LineFramer', () => {
  it('yields the same messages and noise in order under any chunking, CRLF or LF', () => {
    fc.assert(
      fc.property(
        fc.array(item, { maxLength: 12 }),
        fc.array(fc.nat(), { maxLength: 30 }),
        fc.boolean(),
        fc.boolean(),
        (items, offsets, crlf, oneByte) => {
          const eol = crlf ? '\r\n' : '\n';
          const stream = items.map((i) => (i.kind === 'message' ? JSON.stringify(i.value) : i.value) + eol);
          const bytes = enc.encode(stream.join(''));
          const chunks = oneByte ? [...bytes].map((b) => Uint8Array.of(b)) : cut(bytes, offsets);
          const expected = items.flatMap((i): FrameEvent[] => {
            if (i.kind === 'message') return [{ kind: 'message', message: i.value } as FrameEvent];
            if (i.kind === 'noise') return [{ kind: 'noise', line: i.value.slice(0, 200) }];
            return [];
          });
          expect(feed(new LineFramer(), chunks)).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('decodes multi-byte characters split across chunks', () => {
    const msg = { jsonrpc: '2.0', id: 1, result: { text: 'héllo → 世界 🎉🎉' } };
    const bytes = enc.encode(`${JSON.stringify(msg)}\n`);
    for (let split = 1; split < bytes.length; split++) {
      const events = feed(new LineFramer(), [bytes.slice(0, split), bytes.slice(split)]);
      expect(events).toEqual([{ kind: 'message', message: msg }]);
    }
  });

  it('treats JSON that is not JSON-RPC as noise, with a preview of at most 200 chars', () => {
    const long = `{"hello":"${'x'.repeat(1000)}"}`;
    const lines = ['[1,2]', '42', '{"jsonrpc":"1.0","method":"x"}', '{"jsonrpc":"2.0"}', long, '{broken'];
    const events = feed(new LineFramer(), [enc.encode(`${lines.join('\n')}\n`)]);
    expect(events).toEqual(lines.map((l) => ({ kind: 'noise', line: l.slice(0, 200) })));
  });

  it('keeps a preview whole when a surrogate pair straddles the 200th unit', () => {
    const line = `${'a'.repeat(199)}😀tail`;
    const [event] = feed(new LineFramer(), [enc.encode(`${line}\n`)]);
    expect(event).toEqual({ kind: 'noise', line: 'a'.repeat(199) });
  });

  it('ignores empty and whitespace-only lines and flushes a final unterminated line', () => {
    const msg = { jsonrpc: '2.0', method: 'notifications/initialized' };
    const events = feed(new LineFramer(), [enc.encode(`\n\r\n  \t\n${JSON.stringify(msg)}`)]);
    expect(events).toEqual([{ kind: 'message', message: msg }]);
  });

  it('reports an overlong line with its sniffed id and keeps the next message', () => {
    for (const id of [7, 'req-7', 0]) {
      const head = `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"content":[{"type":"text","text":"`;
      const line = `${head}${'y'.repeat(2000)}"}]}}`;
      const next = { jsonrpc: '2.0', id: 8, result: {} };
      const framer = new LineFramer({ maxLineBytes: 1000 });
      const events = feed(framer, cut(enc.encode(`${line}\r\n${JSON.stringify(next)}\n`), [10, 700, 1500]));
      expect(events).toEqual([
        { kind: 'oversize', bytes: line.length, id },
        { kind: 'message', message: next },
      ]);
    }
  });

  it('sniffs the id of an overlong line written result-first, as the MCP SDK writes it', () => {
    const line = `{"result":{"content":[{"type":"text","text":"${'z'.repeat(5000)}"}]},"jsonrpc":"2.0","id":"abc"}`;
    const events = feed(new LineFramer({ maxLineBytes: 1000 }), [enc.encode(`${line}\n`)]);
    expect(events).toEqual([{ kind: 'oversize', bytes: line.length, id: 'abc' }]);
  });

  it('reports no id for an overlong request, even one that has an id', () => {
    const line = `{"jsonrpc":"2.0","id":3,"method":"sampling/createMessage","params":{"x":"${'q'.repeat(3000)}"}}`;
    const events = feed(new LineFramer({ maxLineBytes: 1000 }), [enc.encode(`${line}\n`)]);
    expect(events).toEqual([{ kind: 'oversize', bytes: line.length }]);
  });

  it('holds bounded memory while a 5 MiB line streams past a 1 MiB limit', () => {
    const framer = new LineFramer({ maxLineBytes: MiB });
    const chunk = new Uint8Array(64 * 1024).fill(0x61);
    const first = enc.encode('{"jsonrpc":"2.0","id":42,"result":{"text":"');
    let peak = 0;
    const events: FrameEvent[] = [...framer.push(first)];
    let sent = first.length;
    while (sent < 5 * MiB) {
      events.push(...framer.push(chunk.slice()));
      sent += chunk.length;
      peak = Math.max(peak, framer.bufferedBytes);
    }
    events.push(...framer.push(enc.encode('"}}\n{"jsonrpc":"2.0","id":43,"result":{}}\n')));
    expect(peak).toBeLessThanOrEqual(MiB + 64 * 1024 + 2048);
    expect(framer.bufferedBytes).toBe(0);
    expect(events).toEqual([
      { kind: 'oversize', bytes: sent + 3, id: 42 },
      { kind: 'message', message: { jsonrpc: '2.0', id: 43, result: {} } },
    ]);
  });

  it('accepts a line of exactly maxLineBytes, with or without CR, and rejects one byte more', () => {
    const msg = (n: number) => `{"jsonrpc":"2.0","id":1,"result":"${'a'.repeat(n)}"}`;
    const max = msg(100).length;
    for (const eol of ['\n', '\r\n']) {
      const ok = feed(
        new LineFramer({ maxLineBytes: max }),
        [...enc.encode(msg(100) + eol)].map((b) => Uint8Array.of(b)),
      );
      expect(ok).toEqual([{ kind: 'message', message: JSON.parse(msg(100)) }]);
      const over = feed(new LineFramer({ maxLineBytes: max }), [enc.encode(msg(101) + eol)]);
      expect(over).toEqual([{ kind: 'oversize', bytes: max + 1, id: 1 }]);
    }
  });

  it('accepts plain Uint8Arrays and views into larger buffers', () => {
    const bytes = enc.encode('xx{"jsonrpc":"2.0","method":"a"}\nyy');
    const view = new Uint8Array(bytes.buffer, 2, bytes.length - 4);
    expect(feed(new LineFramer(), [view])).toEqual([
      { kind: 'message', message: { jsonrpc: '2.0', method: 'a' } },
    ]);
  });
});
