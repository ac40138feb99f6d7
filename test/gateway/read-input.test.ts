import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Gateway } from '../../src/gateway/gateway.js';
import { fixtureServer, fleetConfig, fleets } from '../supervisor/fleet.js';
import { ENVELOPE_2026 as envelope, rawFront } from './raw-front.js';

// The gateway over a 2026-only SDK v2 server whose resource fixture://vault asks for input before it is read.
const MODERN = fileURLToPath(new URL('../fixtures/modern-server.mjs', import.meta.url));
const VAULT_STATE = 'vault:\u00e9\u0065\u0301\u2028"\\ \u{1f642}';
const f = fleets();
let gateway: Gateway;
let send: Awaited<ReturnType<typeof rawFront>>;

beforeAll(async () => {
  // Two servers with the same URI: the vault is exposed under the name that routes to m.
  const { sup } = f.create(
    fleetConfig([
      // Both may ask the client for elicitation (docs/security.md).
      { ...fixtureServer('m'), args: [MODERN], allow: ['elicitation'] },
      { ...fixtureServer('n'), args: [MODERN], allow: ['elicitation'] },
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
});

describe('input_required on resources/read through serve', () => {
  it("a 2026 client gets the read's input_required with requestState sealed, and its retry reaches the same server with the server's own", async () => {
    // Two servers list the same URI: n's is the fleet's qualified form (docs/registry.md), which routes to n.
    const vault = 'mcp-supervisor://n/fixture%3A%2F%2Fvault';
    const first = await send('resources/read', { uri: vault, _meta: envelope });
    // The state the client holds is sealed (r1.): the server's own is inside, and only serve can read it.
    expect(first.result).toEqual({
      resultType: 'input_required',
      inputRequests: { unlock: expect.objectContaining({ method: 'elicitation/create' }) },
      requestState: expect.stringMatching(/^r1\.[A-Za-z0-9_-]+$/),
    });
    const inputResponses = { unlock: { action: 'accept', content: { ok: true } } };
    const retry = await send('resources/read', {
      uri: vault,
      inputResponses,
      requestState: (first.result as { requestState: string }).requestState,
      _meta: envelope,
    });
    // The fixture tells the state as it came back: byte for byte the one it gave out.
    expect(retry.result).toMatchObject({
      resultType: 'complete',
      contents: [
        {
          uri: vault,
          text: `vault opened: {"action":"accept","content":{"ok":true}} with ${JSON.stringify(VAULT_STATE)}`,
        },
      ],
    });
  });

  it("a 2025 client that declared no elicitation is declared so to the server, which refuses the read with its error's data", async () => {
    const old = await send('resources/read', { uri: 'mcp-supervisor://m/fixture%3A%2F%2Fvault' });
    // The server's own error data is relayed beside our code, as for prompts: the client learns what to declare.
    expect(old.error).toMatchObject({
      code: -32021,
      data: {
        requiredCapabilities: { elicitation: expect.anything() },
        'mcp-supervisor/code': 'REMOTE_ERROR',
        server: 'm',
      },
    });
  });
});
