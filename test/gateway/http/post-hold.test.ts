import { describe, expect, it } from 'vitest';
import { holdPost } from '../../../src/gateway/http/post-hold.js';

const encoder = new TextEncoder();
const PRIMING = 'id: 1\nretry: 1000\ndata: \n\n';
const ANSWER = '{"result":{"content":[]},"jsonrpc":"2.0","id":2}';
const ERROR = '{"jsonrpc":"2.0","id":2,"error":{"code":-32000,"message":"no"}}';
const NOTE = '{"method":"notifications/message","params":{"level":"info","data":"x"},"jsonrpc":"2.0"}';
const event = (data: string, id = 2) => `event: message\nid: ${id}\ndata: ${data}\n\n`;

/** A stream that carries `chunks` and then ends, or stays open when `end` is false. */
function streamOf(chunks: string[], end = true) {
  let push: (text: string) => void = () => {};
  let close: () => void = () => {};
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const c of chunks) controller.enqueue(encoder.encode(c));
      if (end) controller.close();
      push = (text) => controller.enqueue(encoder.encode(text));
      close = () => controller.close();
    },
  });
  return { reader: stream.getReader(), push: (t: string) => push(t), close: () => close() };
}

const text = (chunks: Uint8Array[]) => Buffer.concat(chunks).toString('utf8');

describe('holdPost', () => {
  it('gives the answer alone when priming events and one answer were all the stream carried', async () => {
    expect(await holdPost(streamOf([PRIMING, event(ANSWER)]).reader, undefined)).toEqual({
      kind: 'answer',
      json: Buffer.from(ANSWER),
      eventIds: ['1', '2'],
    });
    expect(await holdPost(streamOf([event(ERROR, 5)]).reader, 1_000)).toEqual({
      kind: 'answer',
      json: Buffer.from(ERROR),
      eventIds: ['5'],
    });
  });

  it('gives the stream for a chunk that is not one whole event, as the transport makes them', async () => {
    const whole = PRIMING + event(ANSWER);
    const pieces = [whole.slice(0, 7), whole.slice(7, 40), whole.slice(40)];
    expect((await holdPost(streamOf(pieces).reader, undefined)).kind).toBe('stream');
    expect((await holdPost(streamOf([whole]).reader, undefined)).kind).toBe('stream');
  });

  it('gives the stream, without waiting for its end, once a notification comes first', async () => {
    const s = streamOf([PRIMING, event(NOTE)], false);
    const held = await holdPost(s.reader, undefined);
    expect(held.kind).toBe('stream');
    if (held.kind !== 'stream') return;
    expect(text(held.held)).toBe(PRIMING + event(NOTE));
    s.push(event(ANSWER, 3));
    s.close();
    // the read left pending carries on with what came next
    const next = await held.pending;
    expect(new TextDecoder().decode(next?.value)).toBe(event(ANSWER, 3));
  });

  it('gives the stream for a comment, two answers, lines ended with CR LF, or an end with no answer', async () => {
    const comment = await holdPost(streamOf([': keep-alive\n\n'], false).reader, undefined);
    expect(comment.kind).toBe('stream');
    const two = await holdPost(streamOf([event(ANSWER), event(ERROR, 3)], false).reader, undefined);
    expect(two.kind).toBe('stream');
    const crlf = await holdPost(streamOf([`data: ${ANSWER}\r\n\r\n`]).reader, undefined);
    expect(crlf.kind).toBe('stream');
    const bare = await holdPost(streamOf([PRIMING]).reader, undefined);
    expect(bare).toEqual({ kind: 'stream', held: [encoder.encode(PRIMING)], pending: undefined });
  });

  it('gives the stream with what it held and its read pending once the bound has passed', async () => {
    const s = streamOf([PRIMING], false);
    const held = await holdPost(s.reader, 20);
    expect(held.kind).toBe('stream');
    if (held.kind !== 'stream') return;
    expect(text(held.held)).toBe(PRIMING);
    s.push(event(ANSWER));
    expect(new TextDecoder().decode((await held.pending)?.value)).toBe(event(ANSWER));
  });

  it('takes a large message as an answer only when it begins with its result', async () => {
    const big = 'x'.repeat(100 * 1024);
    const result = `{"result":{"content":[{"type":"text","text":"${big}"}]},"jsonrpc":"2.0","id":2}`;
    expect(await holdPost(streamOf([event(result)]).reader, undefined)).toEqual({
      kind: 'answer',
      json: Buffer.from(result),
      eventIds: ['2'],
    });
    // an error this large is not parsed to find what it is: it goes on as the stream it is
    const error = `{"jsonrpc":"2.0","id":2,"error":{"code":-32000,"message":"${big}"}}`;
    expect((await holdPost(streamOf([event(error)]).reader, undefined)).kind).toBe('stream');
  });
});
