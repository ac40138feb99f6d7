import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Gateway } from '../../src/gateway/gateway.js';
import { fixtureServer, fleetConfig, fleets } from '../supervisor/fleet.js';
import { tempDir } from '../supervisor/helpers.js';
import { ENVELOPE_2026 as envelope, rawFront } from './raw-front.js';

// The gateway on a real fleet (fixture processes), its front end an in-memory pair that raw JSON-RPC goes through.
const f = fleets();
/** The fixture lists prompts and resources too: every list carries its cache hint. */
const LISTS = ['--prompts', '1', '--resources', '1'];
let gateway: Gateway;
const dir = tempDir();
/** Every request the fixture received, one JSON per line (its `--log`). */
const LOG = join(dir.dir, 'received.jsonl');
let send: Awaited<ReturnType<typeof rawFront>>;
const call = (params: Record<string, unknown>, method = 'tools/call') => send(method, params);

const stateOf = (n: number) => `round:${n};\u00e9\u0065\u0301\u2028"\\ \u{1f642}`;
const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

beforeAll(async () => {
  const { sup } = f.create(
    fleetConfig([
      // Allowed to ask the client for elicitation: else its round never reaches a client (docs/security.md).
      {
        ...fixtureServer('a', [
          '--input-required',
          '1',
          '--meta-echo',
          '--cache-ttl',
          '60000',
          '--log',
          LOG,
          ...LISTS,
        ]),
        allow: ['elicitation'],
      },
    ]),
  );
  const started = sup.start();
  await started;
  gateway = new Gateway(sup, started, { name: 'gw', version: '1' });
  send = await rawFront(gateway);
}, 20_000);

afterAll(async () => {
  await gateway?.close();
  await f.reap();
  dir.cleanup();
});

describe('input_required and trace context through serve', () => {
  it("a 2026 client gets input_required with the server's requestState as given, and its retry completes", async () => {
    const first = await call({ name: 'a.ask_first', arguments: { text: 'go' }, _meta: envelope });
    expect(first.result).toMatchObject({
      resultType: 'input_required',
      requestState: stateOf(1),
      inputRequests: { confirm_1: { method: 'elicitation/create' } },
    });
    const retry = await call({
      name: 'a.ask_first',
      arguments: { text: 'go' },
      inputResponses: { confirm_1: { action: 'accept', content: { name: 'cy' } } },
      requestState: stateOf(1),
      _meta: envelope,
    });
    expect(retry.result).toMatchObject({
      content: [{ type: 'text', text: expect.stringMatching(/^go confirmed by cy after 1 rounds/) }],
    });
  });

  it("a 2026 client's retry the server refuses (its requestState altered) gets the server's JSON-RPC error", async () => {
    const retry = await call({
      name: 'a.ask_first',
      arguments: { text: 'go' },
      inputResponses: { confirm_1: { action: 'accept', content: { name: 'cy' } } },
      requestState: `${stateOf(1)}-altered`,
      _meta: envelope,
    });
    expect(retry.result).toBeUndefined();
    expect(retry.error).toMatchObject({
      code: -32602,
      message: expect.stringContaining('requestState was altered'),
      data: { 'mcp-supervisor/code': 'REMOTE_ERROR' },
    });
  });

  it('a 2025 client, which cannot retry and declared no elicitation, gets the call failed INPUT_REQUIRED', async () => {
    const answer = await call({ name: 'a.ask_first', arguments: { text: 'go' } });
    expect(answer.result).toMatchObject({
      isError: true,
      _meta: { 'mcp-supervisor/code': 'INPUT_REQUIRED' },
    });
  });

  it("the client's traceparent and tracestate reach the server's request", async () => {
    const meta = { traceparent: TRACEPARENT, tracestate: 'k=v' };
    for (const extra of [{}, envelope]) {
      const answer = await call({ name: 'a.request_meta', arguments: {}, _meta: { ...extra, ...meta } });
      const text = (answer.result as { content: Array<{ text: string }> }).content[0]!.text;
      expect(JSON.parse(text)).toMatchObject(meta);
    }
  });

  it("a client's invalid traceparent stops at the gateway with its tracestate, and its baggage is cleaned", async () => {
    const meta = {
      traceparent: `${TRACEPARENT}\r\nx-injected: 1`,
      tracestate: 'k=v',
      baggage: 'a=1,b=2\nx-injected: 1',
    };
    for (const extra of [{}, envelope]) {
      const answer = await call({ name: 'a.request_meta', arguments: {}, _meta: { ...extra, ...meta } });
      const text = (answer.result as { content: Array<{ text: string }> }).content[0]!.text;
      const got = JSON.parse(text) as Record<string, unknown>;
      expect([got.traceparent, got.tracestate, got.baggage]).toEqual([undefined, undefined, 'a=1']);
    }
  });

  it("the client's trace context reaches the server's prompts/get and resources/read, 2025 and 2026 alike", async () => {
    const meta = { traceparent: TRACEPARENT, tracestate: 'k=v' };
    for (const extra of [{}, envelope]) {
      const got = await call(
        { name: 'a.prompt_1', arguments: { topic: 'owls' }, _meta: { ...extra, ...meta } },
        'prompts/get',
      );
      expect(got.result).toMatchObject({ messages: expect.any(Array) });
      const read = await call(
        { uri: 'fixture://resource/1', _meta: { ...extra, ...meta } },
        'resources/read',
      );
      expect(read.result).toMatchObject({ contents: expect.any(Array) });
    }
    const received = readFileSync(LOG, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { method?: string; params?: { _meta?: Record<string, unknown> } });
    for (const method of ['prompts/get', 'resources/read']) {
      const metas = received.filter((m) => m.method === method).map((m) => m.params?._meta);
      expect([method, metas]).toEqual([
        method,
        [expect.objectContaining(meta), expect.objectContaining(meta)],
      ]);
    }
  });

  it("a 2026 client's every list carries the fleet's cache hint; a 2025 client's carries none", async () => {
    const lists = ['tools/list', 'prompts/list', 'resources/list', 'resources/templates/list'];
    for (const method of lists) {
      const modern = await call({ _meta: envelope }, method);
      expect([method, modern.result]).toMatchObject([method, { ttlMs: 60_000, cacheScope: 'private' }]);
      const old = (await call({}, method)).result as Record<string, unknown>;
      expect([method, Object.keys(old).length > 0, 'ttlMs' in old]).toEqual([method, true, false]);
    }
  });
});
