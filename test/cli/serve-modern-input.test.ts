import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, cliProcesses, ensureBuilt, FIXTURE, ROOT } from './helpers.js';

// A 2026 client answers a server's input rounds itself, through serve: only as the server's allow: permits
// (docs/security.md), as a 2025 client's rounds. The SDK v2 client pinned to 2026-07-28, fulfilling rounds itself.
const cli = cliProcesses();
const MODERN = join(ROOT, 'test/fixtures/modern-server.mjs');
let client: ClientV2;
/** What the client was asked, in order: each elicitation's message. */
const asked: string[] = [];
/** The vault's requestState as JSON, as the fixture tells it came back. */
const STATE = JSON.stringify('vault:\u00e9\u0065\u0301\u2028"\\ \u{1f642}');
const text = (r: object) => ((r as { content?: Array<{ text?: string }> }).content ?? [])[0]?.text ?? '';

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
  const transport = new StdioV2({
    command: process.execPath,
    args: [BIN, 'serve', config, '--trust-all'],
    cwd: ROOT,
    env: { ...(process.env as Record<string, string>), MCP_SUPERVISOR_TRUST_STORE: `${config}.trust.json` },
    stderr: 'pipe',
  });
  await client.connect(transport);
  if (transport.pid) cli.trackPid(transport.pid);
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
    asked.length = 0;
    const call = await client.callTool({ name: 'm.confirm', arguments: {} });
    expect(text(call)).toBe('confirmed: {"action":"accept","content":{"ok":true}}');
    const read = await client.readResource({ uri: 'fixture://vault' });
    expect(read.contents[0]).toMatchObject({
      text: `vault opened: {"action":"accept","content":{"ok":true}} with ${STATE}`,
    });
    const prompt = await client.getPrompt({ name: 'm.unlock' });
    expect(prompt.messages[0]?.content).toMatchObject({ text: expect.stringMatching(/^unlocked: /) });
    expect(asked).toEqual(['Go ahead?', 'Open the vault?', 'Unlock?']);
  }, 30_000);
});
