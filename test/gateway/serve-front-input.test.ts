import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliProcesses, ensureBuilt, FIXTURE, ROOT } from '../cli/helpers.js';
import { httpClient, startHttpServe } from './http/helpers.js';
import { expectRoundsAnswered, firstText } from './serve-2026-helpers.js';
import { connect } from './serve-helpers.js';

// A 2025 client cannot take an input_required result: serve runs the rounds itself, asking that client with the
// real 2025 requests it declared it can answer. The SDK v1 Client over stdio, and over serve --http.
const cli = cliProcesses();
const clients: Client[] = [];
const MODERN = join(ROOT, 'test/fixtures/modern-server.mjs');
let config: string;

/** What the declaring client was asked, in order: each elicitation's message. */
const asked: string[] = [];
/** Declares elicitation and answers it: the fixtures' own schemas, a name for `a`, a yes for `m`. */
function answering(client: Client): void {
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    const message = request.params.message;
    asked.push(message);
    return { action: 'accept', content: message.startsWith('Confirm') ? { name: 'ada' } : { ok: true } };
  });
}
const ELICITATION = { capabilities: { elicitation: {} } };
/** The vault's requestState as JSON, as the fixture tells it came back. */
const text = firstText;

beforeAll(async () => {
  await ensureBuilt();
  const q = (s: string) => JSON.stringify(s);
  config = join(cli.tempDir(), 'fleet.yaml');
  writeFileSync(
    config,
    [
      'servers:',
      '  m:',
      `    command: ${q(process.execPath)}`,
      `    args: [${q(MODERN)}]`,
      '    timeouts: { startup: 5s, call: 5s, shutdown: 1s }',
      '    allow: [elicitation]',
      '  a:',
      `    command: ${q(process.execPath)}`,
      `    args: [${[FIXTURE, '--input-required', '2'].map(q).join(', ')}]`,
      '    timeouts: { startup: 5s, call: 5s, shutdown: 1s }',
      '    allow: [elicitation]',
      // Not allowed to ask the client anything, as for its own requests (docs/security.md).
      '  b:',
      `    command: ${q(process.execPath)}`,
      `    args: [${[FIXTURE, '--input-required', '1'].map(q).join(', ')}]`,
      '    timeouts: { startup: 5s, call: 5s, shutdown: 1s }',
      '',
    ].join('\n'),
  );
}, 120_000);

afterAll(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => {})));
  await cli.reap();
});

describe("serve answers a child's input requests through a 2025 front client", () => {
  it('over stdio: a call, a read and a prompt of a 2026 server each ask the client, and complete', async () => {
    const client = await connect(cli, clients, config, ELICITATION, answering);
    await expectRoundsAnswered(client, asked);
    // Two rounds at a server that refuses any requestState not byte for byte its own: the state went back as given.
    asked.length = 0;
    const twice = await client.callTool({ name: 'a.ask_first', arguments: { text: 'ship' } });
    expect(text(twice)).toMatch(/^ship confirmed by ada after 2 rounds in \d+$/);
    expect(asked).toEqual(['Confirm ship? (round 1)', 'Confirm ship? (round 2)']);
    // A server not allowed to ask the client is refused without the client hearing of it.
    const barred = await client.callTool({ name: 'b.ask_first', arguments: { text: 'ship' } });
    expect(barred).toMatchObject({ isError: true, _meta: { 'mcp-supervisor/code': 'INPUT_REQUIRED' } });
    expect(text(barred)).toContain("server 'b' is not allowed to ask the client for elicitation");
    expect(asked).toHaveLength(2);
  }, 30_000);

  it('over HTTP: the same for a 2025 session; one that declared no elicitation gets INPUT_REQUIRED naming what was asked', async () => {
    const serve = await startHttpServe(cli, config);
    const { client } = await httpClient(serve.url, clients, { client: ELICITATION, before: answering });
    asked.length = 0;
    expect(text(await client.callTool({ name: 'm.confirm', arguments: {} }))).toMatch(/^confirmed: /);
    expect(asked).toEqual(['Go ahead?']);

    const { client: bare } = await httpClient(serve.url, clients);
    const refused = await bare.callTool({ name: 'a.ask_first', arguments: { text: 'ship' } });
    expect(refused).toMatchObject({ isError: true, _meta: { 'mcp-supervisor/code': 'INPUT_REQUIRED' } });
    expect(text(refused)).toContain('confirm_1 (elicitation/create)');
    expect(text(refused)).toContain('no elicitation capability');
    // Told it can answer nothing, the 2026 server refuses the call itself (−32021), a tool error as ever for 2025.
    const modern = await bare.callTool({ name: 'm.confirm', arguments: {} });
    expect(modern).toMatchObject({ isError: true, _meta: { 'mcp-supervisor/code': 'REMOTE_ERROR' } });
    expect(asked).toEqual(['Go ahead?']);
  }, 30_000);
});
