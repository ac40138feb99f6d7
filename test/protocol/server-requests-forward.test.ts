import { describe, expect, it } from 'vitest';
import type { JsonRpcMessage } from '../../src/framing/json-rpc.js';
import {
  type ForwardAnswer,
  MAX_FORWARDED,
  ServerRequestHandler,
} from '../../src/protocol/server-requests.js';

/** A handler whose forwarded requests wait until the test answers them. */
function forwarding(perSecond = 1000, burst = 1000) {
  const sent: JsonRpcMessage[] = [];
  const refused: string[] = [];
  const asked: Array<{ method: string; signal: AbortSignal; answer: (a: ForwardAnswer) => void }> = [];
  const h = new ServerRequestHandler(
    undefined,
    (m) => sent.push(m) > 0,
    (m) => refused.push(m),
    {
      perSecond,
      burst,
    },
  );
  h.forward = (method, _params, signal) =>
    method === 'sampling/createMessage'
      ? new Promise<ForwardAnswer>((answer) => asked.push({ method, signal, answer }))
      : undefined;
  return { h, sent, refused, asked };
}

const sampling = (id: number | string) => ({ jsonrpc: '2.0' as const, id, method: 'sampling/createMessage' });
const flush = () => new Promise((r) => setImmediate(r));

describe('ServerRequestHandler forwarding', () => {
  it('sends the answer of a forwarded request under the server’s id', async () => {
    const { h, sent, refused, asked } = forwarding();
    h.handle(sampling('s1'));
    expect(sent).toEqual([]);
    asked[0]!.answer({ result: { role: 'assistant', content: { type: 'text', text: 'hi' } } });
    await flush();
    expect(sent).toEqual([
      { jsonrpc: '2.0', id: 's1', result: { role: 'assistant', content: { type: 'text', text: 'hi' } } },
    ]);
    expect(refused).toEqual([]);
  });

  it('answers with an error when the answer is not JSON, as a link writing it would find', async () => {
    const sent: JsonRpcMessage[] = [];
    const h = new ServerRequestHandler(
      undefined,
      (m) => sent.push(JSON.parse(JSON.stringify(m)) as JsonRpcMessage) > 0,
      () => {},
      { perSecond: 1000, burst: 1000 },
    );
    h.forward = () => Promise.resolve({ result: { tokens: 1n } });
    h.handle(sampling('s1'));
    await flush();
    expect(sent).toEqual([
      {
        jsonrpc: '2.0',
        id: 's1',
        error: {
          code: -32603,
          message: 'the answer cannot be sent as JSON: Do not know how to serialize a BigInt',
        },
      },
    ]);
  });

  it('refuses with -32601 what nobody answers, and says so', () => {
    const { h, sent, refused } = forwarding();
    h.handle({ jsonrpc: '2.0', id: 1, method: 'elicitation/create' });
    expect(sent).toEqual([
      expect.objectContaining({ id: 1, error: expect.objectContaining({ code: -32601 }) }),
    ]);
    expect(refused).toEqual(['elicitation/create']);
  });

  it('sends nothing for a request the server cancelled, and aborts whoever was answering it', async () => {
    const { h, sent, asked } = forwarding();
    h.handle(sampling(7));
    h.cancel(7);
    expect(asked[0]!.signal.aborted).toBe(true);
    asked[0]!.answer({ result: {} });
    await flush();
    expect(sent).toEqual([]);
  });

  it(`bounds the requests waiting at once at ${MAX_FORWARDED}: one more gets an error at once`, () => {
    const { h, sent, asked } = forwarding();
    for (let i = 0; i <= MAX_FORWARDED; i++) h.handle(sampling(i));
    expect(asked).toHaveLength(MAX_FORWARDED + 1);
    expect(asked[MAX_FORWARDED]!.signal.aborted).toBe(true);
    expect(sent).toEqual([
      expect.objectContaining({ id: MAX_FORWARDED, error: expect.objectContaining({ code: -32000 }) }),
    ]);
  });

  it('keeps the rate limit in front: beyond it nothing is forwarded', () => {
    const { h, sent, asked } = forwarding(1, 2);
    for (let i = 0; i < 4; i++) h.handle(sampling(i));
    expect(asked).toHaveLength(2);
    expect(sent.map((m) => ('error' in m ? m.error.code : 'ok'))).toEqual([-32000, -32000]);
  });

  it('answers nothing once closed: the server is gone', async () => {
    const { h, sent, asked } = forwarding();
    h.handle(sampling(1));
    h.close();
    expect(asked[0]!.signal.aborted).toBe(true);
    asked[0]!.answer({ result: {} });
    await flush();
    expect(sent).toEqual([]);
  });
});
