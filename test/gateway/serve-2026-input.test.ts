import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliProcesses, ensureBuilt, FIXTURE, ROOT } from '../cli/helpers.js';
import { connectV2, expectRoundsAnswered, firstText } from './serve-2026-helpers.js';

// A 2026 client answers a server's input rounds itself, through serve: only as the server's allow: permits
// (docs/security.md), as a 2025 client's rounds. The SDK v2 client pinned to 2026-07-28, fulfilling rounds itself.
const cli = cliProcesses();
const MODERN = join(ROOT, 'test/fixtures/modern-server.mjs');
let client: ClientV2;
/** What the client was asked, in order: each elicitation's message. */
const asked: string[] = [];
/** The vault's requestState as JSON, as the fixture tells it came back. */
const text = firstText;

beforeAll(async () => {
  await ensureBuilt();
  const q = (s: string) => JSON.stringify(s);
  const config = join(cli.tempDir(), 'fleet.yaml');
  const server = (id: string, args: string[], allow?: string) => [
    `  ${id}:`,
    `    command: ${q(process.execPath)}`,
    `    args: [${args.map(q).join(', ')}]`,
    '    timeouts: { startup: 5s, call: 5s, shutdown: 1s }',
    ...(allow ? [`    allow: [${allow}]`] : []),
  ];
  writeFileSync(
    config,
    [
      'servers:',
      ...server('m', [MODERN], 'elicitation'),
      // Neither may ask the client anything: n is told the client can answer nothing, b asks all the same.
      ...server('n', [MODERN]),
      ...server('b', [FIXTURE, '--input-required', '1']),
      '',
    ].join('\n'),
  );
  client = new ClientV2(
    { name: 'modern-input-test', version: '1.0.0' },
    { capabilities: { elicitation: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  client.setRequestHandler('elicitation/create', async (request) => {
    const message = String((request.params as { message?: unknown }).message);
    asked.push(message);
    return { action: 'accept', content: message.startsWith('Confirm') ? { name: 'ada' } : { ok: true } };
  });
  await connectV2(cli, client, config);
}, 120_000);

afterAll(async () => {
  await client?.close().catch(() => {});
  await cli.reap();
});

describe("serve gates a server's input rounds for a 2026 client by allow:", () => {
  it('a server without allow: never reaches the client', async () => {
    asked.length = 0;
    // Told the client can answer nothing, the 2026 server refuses the call itself (−32021), its data relayed.
    await expect(client.callTool({ name: 'n.confirm', arguments: {} })).rejects.toMatchObject({
      code: -32021,
    });
    await expect(
      client.readResource({ uri: 'mcp-supervisor://n/fixture%3A%2F%2Fvault' }),
    ).rejects.toMatchObject({
      code: -32021,
    });
    // One that asks all the same is refused with the code a 2025 client's round gets.
    const barred = await client.callTool({ name: 'b.ask_first', arguments: { text: 'ship' } });
    expect(barred).toMatchObject({ isError: true, _meta: { 'mcp-supervisor/code': 'INPUT_REQUIRED' } });
    expect(text(barred)).toContain("server 'b' is not allowed to ask the client for elicitation");
    expect(asked).toEqual([]);
  }, 30_000);

  it('with allow: [elicitation] it does, and the requestState goes back byte for byte', async () => {
    await expectRoundsAnswered(client, asked);
  }, 30_000);
});
