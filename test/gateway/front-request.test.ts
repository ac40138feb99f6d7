import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Gateway } from '../../src/gateway/gateway.js';
import { ROUND_FOR_MS, RoundSeal } from '../../src/gateway/seal/round-seal.js';
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

/** The seal the gateway uses, under a key and a clock the test holds. */
let clockMs = Date.now();
const seal = new RoundSeal(randomBytes(32), () => clockMs);
/** Every request the fixture received, parsed. */
const received = () =>
  readFileSync(LOG, 'utf8')
    .trim()
    .split('\n')
    .map(
      (l) =>
        JSON.parse(l) as {
          method?: string;
          params?: Record<string, unknown> & { _meta?: Record<string, unknown> };
        },
    );
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
  gateway = new Gateway(sup, started, { name: 'gw', version: '1', rounds: seal });
  send = await rawFront(gateway);
}, 20_000);

afterAll(async () => {
  await gateway?.close();
  await f.reap();
  dir.cleanup();
});

describe('input_required and trace context through serve', () => {
  it("a 2026 client gets input_required with the server's requestState sealed, and its retry completes", async () => {
    const first = await call({ name: 'a.ask_first', arguments: { text: 'go' }, _meta: envelope });
    expect(first.result).toMatchObject({
      resultType: 'input_required',
      requestState: expect.stringMatching(/^r1\./),
      inputRequests: { confirm_1: { method: 'elicitation/create' } },
    });
    const sealed = (first.result as { requestState: string }).requestState;
    // Nothing of the server's own state shows: not its text, nor its base64.
    const own = stateOf(1);
    for (const shown of [own, 'round:1', Buffer.from(own).toString('base64url').slice(0, 12)])
      expect(sealed).not.toContain(shown);
    const retry = await call({
      name: 'a.ask_first',
      arguments: { text: 'go' },
      inputResponses: { confirm_1: { action: 'accept', content: { name: 'cy' } } },
      requestState: sealed,
      _meta: envelope,
    });
    // The fixture refuses any requestState not byte for byte its own: it got its own back.
    expect(retry.result).toMatchObject({
      content: [{ type: 'text', text: expect.stringMatching(/^go confirmed by cy after 1 rounds/) }],
    });
  });

  it("a retry whose sealed requestState is altered, another caller's or expired is refused before any server", async () => {
    const first = await call({ name: 'a.ask_first', arguments: { text: 'go' }, _meta: envelope });
    const sealed = (first.result as { requestState: string }).requestState;
    const flip = (c: string) => (c === 'A' ? 'B' : 'A');
    const altered = [
      sealed.slice(0, 20) + flip(sealed[20]!) + sealed.slice(21),
      `${sealed}A`,
      'r1.',
      stateOf(1),
      // Sealed for another caller under the same key.
      seal.sealResult({ resultType: 'input_required', requestState: stateOf(1) }, 'someone-else')
        .requestState,
    ];
    for (const requestState of altered) {
      const retry = await call({
        name: 'a.ask_first',
        arguments: { text: `altered ${requestState.length}` },
        inputResponses: { confirm_1: { action: 'accept', content: { name: 'cy' } } },
        requestState,
        _meta: envelope,
      });
      expect([requestState, retry.error]).toMatchObject([
        requestState,
        { code: -32602, data: { 'mcp-supervisor/code': 'REQUEST_STATE_REFUSED' } },
      ]);
    }
    // Past its hour a state opens for no one.
    clockMs += ROUND_FOR_MS;
    const late = await call({
      name: 'a.ask_first',
      arguments: { text: 'late' },
      inputResponses: { confirm_1: { action: 'accept', content: { name: 'cy' } } },
      requestState: sealed,
      _meta: envelope,
    });
    clockMs -= ROUND_FOR_MS;
    expect(late.error).toMatchObject({
      code: -32602,
      data: { 'mcp-supervisor/code': 'REQUEST_STATE_REFUSED' },
    });
    // None reached the server: a call made after them did, and is the last tools/call it received.
    await call({ name: 'a.echo', arguments: { text: 'after' } });
    const calls = received().filter((m) => m.method === 'tools/call');
    expect(calls.at(-1)?.params).toMatchObject({ name: 'echo', arguments: { text: 'after' } });
    expect(calls.filter((m) => /altered|late/.test(JSON.stringify(m.params?.arguments)))).toEqual([]);
  });

  it("a retry whose state the server itself refuses gets the server's JSON-RPC error", async () => {
    const requestState = seal.sealResult(
      { resultType: 'input_required', requestState: `${stateOf(1)}-altered` },
      null,
    ).requestState;
    const retry = await call({
      name: 'a.ask_first',
      arguments: { text: 'go' },
      inputResponses: { confirm_1: { action: 'accept', content: { name: 'cy' } } },
      requestState,
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
