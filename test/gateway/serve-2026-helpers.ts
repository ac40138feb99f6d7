import type { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { expect } from 'vitest';
import { BIN, type cliProcesses, ROOT } from '../cli/helpers.js';
import { MCP_POST, raw } from './http/helpers.js';

/** Connects an SDK v2 client to `serve CONFIG` over stdio (its trust store beside the config); the pid is reaped. */
export async function connectV2(
  cli: ReturnType<typeof cliProcesses>,
  client: ClientV2,
  config: string,
): Promise<void> {
  const transport = new StdioV2({
    command: process.execPath,
    args: [BIN, 'serve', config, '--trust-all'],
    cwd: ROOT,
    env: { ...(process.env as Record<string, string>), MCP_SUPERVISOR_TRUST_STORE: `${config}.trust.json` },
    stderr: 'pipe',
  });
  await client.connect(transport);
  if (transport.pid) cli.trackPid(transport.pid);
}

/** The first text block of a result. */
export const firstText = (r: object) =>
  ((r as { content?: Array<{ text?: string }> }).content ?? [])[0]?.text ?? '';

/** What the 2026 fixture's vault keeps as its requestState: odd characters on purpose. */
export const VAULT_STATE = JSON.stringify('vault:\u00e9\u0065\u0301\u2028"\\ \u{1f642}');

/** The calls of either SDK's client that the input-round checks make. */
interface RoundClient {
  callTool(p: { name: string; arguments: Record<string, unknown> }): Promise<object>;
  readResource(p: { uri: string }): Promise<{ contents: unknown[] }>;
  getPrompt(p: { name: string }): Promise<{ messages: Array<{ content: unknown }> }>;
}

/**
 * A call, a read and a prompt of the 2026 fixture server `m` each ask the client once (elicitation answered
 * `{ ok: true }`) and complete, the vault's requestState back byte for byte; `asked` collects the questions.
 */
export async function expectRoundsAnswered(client: RoundClient, asked: string[]): Promise<void> {
  asked.length = 0;
  const call = await client.callTool({ name: 'm.confirm', arguments: {} });
  expect(firstText(call)).toBe('confirmed: {"action":"accept","content":{"ok":true}}');
  const read = await client.readResource({ uri: 'fixture://vault' });
  expect(read.contents[0]).toMatchObject({
    text: `vault opened: {"action":"accept","content":{"ok":true}} with ${VAULT_STATE}`,
  });
  const prompt = await client.getPrompt({ name: 'm.unlock' });
  expect(prompt.messages[0]?.content).toMatchObject({ text: expect.stringMatching(/^unlocked: /) });
  expect(asked).toEqual(['Go ahead?', 'Open the vault?', 'Unlock?']);
}

/** A JSON-RPC answer to one 2026 POST, read from a JSON body or from the last `data:` line of an event stream. */
export interface ModernAnswer {
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
}

/**
 * One 2026 request to `serve --http` with its envelope (declaring the tasks extension unless `tasks` is false) and
 * the headers the revision asks for (`Mcp-Name` from the params' `name` or `taskId`); `headers` adds to them.
 */
export async function postModern(
  url: URL,
  method: string,
  params: Record<string, unknown>,
  opts: { tasks?: boolean; headers?: Record<string, string> } = {},
): Promise<ModernAnswer> {
  const caps = opts.tasks === false ? {} : { extensions: { 'io.modelcontextprotocol/tasks': {} } };
  const meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': caps,
    'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
  };
  const name = params.name ?? params.taskId;
  const res = await raw(url, {
    method: 'POST',
    headers: {
      ...MCP_POST,
      ...opts.headers,
      'MCP-Protocol-Version': '2026-07-28',
      'Mcp-Method': method,
      ...(typeof name === 'string' ? { 'Mcp-Name': name } : {}),
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: meta } }),
  });
  const data = res.body.split('\n').filter((l) => l.startsWith('data:'));
  return JSON.parse(data.length > 0 ? data[data.length - 1]!.slice(5) : res.body) as ModernAnswer;
}
