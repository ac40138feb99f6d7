import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InputRequest } from '../../../src/supervisor/input-required/rounds.js';
import type { Supervisor } from '../../../src/supervisor/supervisor.js';
import { eventually, fixtureServer, fleetConfig, fleets } from '../fleet.js';

// resources/read and prompts/get may answer input_required too (MCP 2026-07-28): the library runs the host's
// onInputRequired rounds for them as for tools/call, against a 2026-only server on the official SDK v2.
const MODERN = join(process.cwd(), 'test/fixtures/modern-server.mjs');
const VAULT = 'fixture://vault';
const VAULT_STATE = 'vault:\u00e9\u0065\u0301\u2028"\\ \u{1f642}';

const f = fleets();
afterAll(() => f.reap());

const asked: InputRequest[] = [];
/** What the handler answers: `unlock` accepted, or (for the bound's test) an answer the server keeps refusing. */
let answer: (r: InputRequest) => Record<string, unknown> = () => ({
  unlock: { action: 'accept', content: { ok: true } },
});
let answering: Supervisor;
let bare: Supervisor;

beforeAll(async () => {
  const servers = () => [fixtureServer('m', [], { args: [MODERN] })];
  answering = f.create(fleetConfig(servers()), {
    onInputRequired: (request) => {
      asked.push(request);
      return answer(request);
    },
  }).sup;
  bare = f.create(fleetConfig(servers())).sup;
  await Promise.all([answering.start(), bare.start()]);
  for (const sup of [answering, bare])
    await eventually(() => sup.listPrompts().some((p) => p.name === 'm.unlock'), 5000, 'the prompts of m');
}, 20_000);

describe('input_required on resources/read and prompts/get in the library', () => {
  it('onInputRequired answers a read, told the method and URI, and the read completes at the same server', async () => {
    asked.length = 0;
    const out = await answering.readResource(VAULT);
    expect(out).toMatchObject({
      ok: true,
      server: 'm',
      contents: [
        {
          uri: VAULT,
          text: expect.stringContaining('vault opened: {"action":"accept","content":{"ok":true}}'),
        },
      ],
    });
    expect(asked.map((r) => [r.server, r.method, r.name, r.round, Object.keys(r.inputRequests)])).toEqual([
      ['m', 'resources/read', VAULT, 1, ['unlock']],
    ]);
  });

  it('a prompt that asks is answered by the same handler', async () => {
    asked.length = 0;
    const out = await answering.getPrompt('m.unlock');
    expect(out).toMatchObject({
      ok: true,
      result: { messages: [{ content: { text: 'unlocked: {"action":"accept","content":{"ok":true}}' } }] },
    });
    expect(asked.map((r) => [r.method, r.name])).toEqual([['prompts/get', 'm.unlock']]);
  });

  it('a server that keeps asking ends the read INPUT_ROUNDS after 8 rounds, and the prompt likewise', async () => {
    asked.length = 0;
    answer = () => ({ other: { action: 'decline' } });
    try {
      expect(await answering.readResource(VAULT)).toMatchObject({
        ok: false,
        code: 'INPUT_ROUNDS',
        server: 'm',
        uri: VAULT,
        input: { resultType: 'input_required', requestState: VAULT_STATE },
      });
      expect(asked.map((r) => r.round)).toEqual([1, 2, 3, 4, 5, 6, 7]);
      expect(await answering.getPrompt('m.unlock')).toMatchObject({ ok: false, code: 'INPUT_ROUNDS' });
      answer = () => {
        throw new Error('the person said no');
      };
      const refused = await answering.readResource(VAULT);
      expect(refused).toMatchObject({ ok: false, code: 'INPUT_REQUIRED' });
      expect(!refused.ok && refused.message).toContain('unlock (elicitation/create)');
    } finally {
      answer = () => ({ unlock: { action: 'accept', content: { ok: true } } });
    }
  });

  it('without a handler a read is INPUT_REQUIRED naming what was asked, the state as data', async () => {
    const out = await bare.readResource(VAULT, { inputCapabilities: { elicitation: {} } });
    expect(out).toMatchObject({
      ok: false,
      code: 'INPUT_REQUIRED',
      server: 'm',
      uri: VAULT,
      input: { resultType: 'input_required', requestState: VAULT_STATE },
    });
    expect(!out.ok && out.message).toContain('unlock (elicitation/create)');
    expect(await bare.readResource(VAULT, { retry: 'x' } as never)).toMatchObject({
      ok: false,
      code: 'INVALID_CALL',
    });
  });

  it('passInputRequired hands the round back at once, and a retry with it completes', async () => {
    asked.length = 0;
    const first = await answering.readResource(VAULT, {
      passInputRequired: true,
      inputCapabilities: { elicitation: {} },
    });
    expect(first).toMatchObject({
      ok: false,
      code: 'INPUT_REQUIRED',
      input: { requestState: VAULT_STATE },
    });
    expect(asked).toEqual([]);
    const retry = {
      inputResponses: { unlock: { action: 'accept', content: { ok: false } } },
      requestState: VAULT_STATE,
    };
    const second = await answering.readResource(VAULT, { passInputRequired: true, retry });
    // The fixture shows the state as it came back: byte for byte the one it gave.
    const text = `vault opened: {"action":"accept","content":{"ok":false}} with ${JSON.stringify(VAULT_STATE)}`;
    expect(second).toMatchObject({ ok: true, contents: [{ text }] });
  });
});
