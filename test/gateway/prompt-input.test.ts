import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Gateway } from '../../src/gateway/gateway.js';
import type { Supervisor } from '../../src/supervisor/supervisor.js';
import { fixtureServer, fleetConfig, fleets } from '../supervisor/fleet.js';
import { ENVELOPE_2026 as envelope, rawFront } from './raw-front.js';

// The gateway over a 2026-only SDK v2 server whose prompt asks for input first; raw JSON-RPC on an in-memory front.
const MODERN = fileURLToPath(new URL('../fixtures/conformance-modern.mjs', import.meta.url));
const PROMPT = 'm.test_input_required_result_prompt';
const f = fleets();
let gateway: Gateway;
let sup: Supervisor;
let send: Awaited<ReturnType<typeof rawFront>>;

beforeAll(async () => {
  ({ sup } = f.create(
    fleetConfig([{ ...fixtureServer('m'), args: [MODERN], allow: ['sampling', 'elicitation'] }]),
    // The fleet could answer sampling (a 2025 server's request) itself: a 2026 client's call must not claim it.
    { onSampling: async () => ({ role: 'assistant', content: { type: 'text', text: 'x' }, model: 'm' }) },
  ));
  const started = sup.start();
  await started;
  // The server's prompts are listed just after it is ready.
  for (const end = Date.now() + 5000; !sup.listPrompts().some((p) => p.name === PROMPT); ) {
    if (Date.now() > end) throw new Error(`${PROMPT} never listed`);
    await new Promise((r) => setTimeout(r, 20));
  }
  gateway = new Gateway(sup, started, { name: 'gw', version: '1' });
  send = await rawFront(gateway);
}, 20_000);

afterAll(async () => {
  await gateway?.close();
  await f.reap();
});

describe('input_required on prompts/get through serve', () => {
  it("a 2026 client gets the server's input_required, declared as it can answer, and its retry completes", async () => {
    const first = await send('prompts/get', { name: PROMPT, _meta: envelope });
    expect(first.result).toMatchObject({
      resultType: 'input_required',
      inputRequests: { user_context: { method: 'elicitation/create' } },
    });
    const inputResponses = { user_context: { action: 'accept', content: { context: 'tests' } } };
    const retry = await send('prompts/get', { name: PROMPT, inputResponses, _meta: envelope });
    expect(retry.result).toMatchObject({ messages: [{ content: { type: 'text', text: 'Context: tests' } }] });
  });

  it("a 2025 client, which declares no input it could answer, gets the server's refusal with its data", async () => {
    const old = await send('prompts/get', { name: PROMPT });
    expect(old.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { elicitation: {} }, 'mcp-supervisor/code': 'REMOTE_ERROR', server: 'm' },
    });
  });

  it('a 2026 client that declares no input is declared so to the server, whatever the fleet could answer', async () => {
    const envelopeOf = (caps: Record<string, unknown>) => ({
      ...envelope,
      'io.modelcontextprotocol/clientCapabilities': caps,
    });
    const name = 'm.test_missing_capability';
    const bare = await send('tools/call', { name, arguments: {}, _meta: envelopeOf({}) });
    expect(bare.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { sampling: {} }, 'mcp-supervisor/code': 'REMOTE_ERROR' },
    });
    const sampling = await send('tools/call', {
      name,
      arguments: {},
      _meta: envelopeOf({ sampling: {} }),
    });
    expect(sampling.result).toMatchObject({ resultType: 'input_required' });
  });

  it('in the library, a prompt that needs input is the failure INPUT_REQUIRED naming what was asked', async () => {
    const out = await sup.getPrompt(PROMPT, undefined, { inputCapabilities: { elicitation: {} } });
    expect(out).toMatchObject({
      ok: false,
      code: 'INPUT_REQUIRED',
      server: 'm',
      message: expect.stringContaining('user_context (elicitation/create)'),
      input: { resultType: 'input_required', inputRequests: { user_context: {} } },
    });
    const junk = await sup.getPrompt(PROMPT, undefined, { retry: 'x' } as never);
    expect(junk).toMatchObject({ ok: false, code: 'INVALID_CALL' });
  });
});
