import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallToolResult } from '../../../src/protocol/tool-calls.js';
import type { InputRequest } from '../../../src/supervisor/input-required/rounds.js';
import type { Supervisor } from '../../../src/supervisor/supervisor.js';
import { eventually, fixtureServer, fleetConfig, fleets } from '../fleet.js';

// The state the fixture hands out for round n: the odd characters catch any re-encoding on the way back.
const stateOf = (n: number) => `round:${n};\u00e9\u0065\u0301\u2028"\\ \u{1f642}`;

const f = fleets();
afterAll(() => f.reap());

const asked: InputRequest[] = [];
let answering: Supervisor;
let bare: Supervisor;

beforeAll(async () => {
  const servers = () => [
    fixtureServer('a', ['--input-required', '2', '--meta-echo']),
    fixtureServer('forever', ['--input-required', '100']),
    // A 2026-only server on the official SDK v2: it asks only for what a request's client capabilities declare.
    fixtureServer('m', [], { args: [join(process.cwd(), 'test/fixtures/modern-server.mjs')] }),
  ];
  answering = f.create(fleetConfig(servers()), {
    onInputRequired: (request) => {
      asked.push(request);
      const [key] = Object.keys(request.inputRequests);
      return {
        [key!]: { action: 'accept', content: request.server === 'm' ? { ok: true } : { name: 'ada' } },
      };
    },
  }).sup;
  bare = f.create(fleetConfig(servers())).sup;
  await Promise.all([answering.start(), bare.start()]);
}, 20_000);

describe('input_required results (MCP 2026-07-28 multi round-trip requests)', () => {
  it("onInputRequired answers each round and the call is retried with the server's state exactly as given", async () => {
    asked.length = 0;
    const outcome = await answering.callToolOutcome('a.ask_first', { text: 'deploy' });
    const pid = answering.status().find((s) => s.id === 'a')?.pid;
    // The fixture refuses a state that is not byte for byte one it gave out, so completing proves the echo.
    expect(outcome).toEqual({ ok: true, text: `deploy confirmed by ada after 2 rounds in ${pid}` });
    expect(asked.map((r) => [r.server, r.tool, r.round, Object.keys(r.inputRequests)])).toEqual([
      ['a', 'a.ask_first', 1, ['confirm_1']],
      ['a', 'a.ask_first', 2, ['confirm_2']],
    ]);
    expect(asked[0]!.inputRequests.confirm_1).toMatchObject({ method: 'elicitation/create' });
  });

  it('without onInputRequired the call fails INPUT_REQUIRED, naming what was asked, with the state as data', async () => {
    const outcome = await bare.callToolOutcome('a.ask_first', { text: 'deploy' });
    expect(outcome).toMatchObject({
      ok: false,
      code: 'INPUT_REQUIRED',
      server: 'a',
      input: { resultType: 'input_required', requestState: stateOf(1) },
    });
    expect(!outcome.ok && outcome.message).toContain('confirm_1 (elicitation/create)');
    expect(await bare.callTool('a.ask_first', { text: 'x' })).toMatch(/^ERROR: .*needs input first/);
  });

  it('a 2026 server is told the host can answer elicitation, asks, and completes on the retry', async () => {
    asked.length = 0;
    const outcome = await answering.callToolOutcome('m.confirm', {});
    expect(outcome).toEqual({ ok: true, text: 'confirmed: {"action":"accept","content":{"ok":true}}' });
    expect(asked.map((r) => [r.server, Object.keys(r.inputRequests)])).toEqual([['m', ['confirm']]]);
    // Without a handler nothing is declared, so the server may not ask: it refuses with its own error instead.
    expect(await bare.callToolOutcome('m.confirm', {})).toMatchObject({ ok: false, rpcCode: -32021 });
  });

  it('a server that never stops asking ends the call INPUT_ROUNDS after 8 rounds', async () => {
    asked.length = 0;
    const outcome = await answering.callToolOutcome('forever.ask_first', { text: 'x' });
    expect(outcome).toMatchObject({ ok: false, code: 'INPUT_ROUNDS', server: 'forever' });
    // Seven answers; the eighth input_required ends it.
    expect(asked.map((r) => r.round)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('passInputRequired hands the result back as it came, and a retry with it completes at the same server', async () => {
    const first = (await bare.callToolResult(
      'a.ask_first',
      { text: 'ship' },
      { passInputRequired: true },
    )) as unknown as Record<string, unknown>;
    expect(first).toMatchObject({ resultType: 'input_required', requestState: stateOf(1) });
    const answer = (n: number) => ({ [`confirm_${n}`]: { action: 'accept', content: { name: 'bo' } } });
    const second = (await bare.callToolResult(
      'a.ask_first',
      { text: 'ship' },
      { passInputRequired: true, retry: { inputResponses: answer(1), requestState: stateOf(1) } },
    )) as unknown as Record<string, unknown>;
    expect(second).toMatchObject({ resultType: 'input_required', requestState: stateOf(2) });
    const last: CallToolResult = await bare.callToolResult(
      'a.ask_first',
      { text: 'ship' },
      { passInputRequired: true, retry: { inputResponses: answer(2), requestState: stateOf(2) } },
    );
    expect(last.content[0]).toMatchObject({
      text: expect.stringMatching(/^ship confirmed by bo after 2 rounds/),
    });
  });

  it("the caller's trace context reaches the server in the request's _meta", async () => {
    const trace = {
      traceparent: '00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01',
      tracestate: 'vendor1=a,vendor2=b',
    };
    const outcome = await bare.callToolOutcome('a.request_meta', {}, { trace });
    expect(outcome.ok && JSON.parse(outcome.text)).toEqual(trace);
    const bad = await bare.callToolOutcome('a.request_meta', {}, { trace: { traceparent: 7 } } as never);
    expect(bad).toMatchObject({ ok: false, code: 'INVALID_CALL' });
  });
});

describe('a retry whose tool changed hands', () => {
  it('is refused ROUTE_CHANGED rather than sent to a server that never asked', async () => {
    const made = f.create(
      fleetConfig([
        fixtureServer('p', ['--input-required', '1'], { namespace: false }),
        fixtureServer('q', ['--input-required', '1'], { namespace: false }),
      ]),
    );
    await made.sup.start();
    const first = (await made.sup.callToolResult(
      'ask_first',
      { text: 'x' },
      { passInputRequired: true },
    )) as unknown as Record<string, unknown>;
    expect(first).toMatchObject({ resultType: 'input_required' });
    // p holds the name (first in config); once it stops, q's ask_first takes it over.
    expect(made.sup.stopServer('p')).toMatchObject({ ok: true });
    await eventually(
      () => made.sup.listTools().some((t) => t.name === 'ask_first' && t.server === 'q'),
      5000,
      "q's ask_first",
    );
    const retry = { inputResponses: { confirm_1: { action: 'accept' } }, requestState: stateOf(1) };
    const outcome = await made.sup.callToolOutcome('ask_first', { text: 'x' }, { retry });
    expect(outcome).toMatchObject({ ok: false, code: 'ROUTE_CHANGED', server: 'q' });
  }, 20_000);
});
