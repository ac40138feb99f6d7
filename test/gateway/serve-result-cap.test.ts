import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { BIN, FIXTURE, ROOT } from '../cli/helpers.js';
import { serveClients } from './serve-helpers.js';

const q = (s: string) => JSON.stringify(s);
const { cli, clients } = serveClients();

/** A config of one fixture server `fx` whose own cap (64 KiB by default) is far above the gateway's. */
function writeConfig(head: string[]): string {
  const dir = cli.tempDir();
  const path = join(dir, 'fleet.yaml');
  const lines = [
    ...head,
    'servers:',
    '  fx:',
    `    command: ${q(process.execPath)}`,
    `    args: [${q(FIXTURE)}]`,
    '    timeouts: { startup: 20s, call: 20s, shutdown: 2s }',
    '',
  ];
  writeFileSync(path, lines.join('\n'));
  return path;
}

async function serve(config: string, flags: string[] = []): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'serve', config, '--trust-all', ...flags],
    cwd: ROOT,
    env: { ...(process.env as Record<string, string>), MCP_SUPERVISOR_TRUST_STORE: `${config}.trust.json` },
    stderr: 'ignore',
  });
  const c = new Client({ name: 'serve-result-cap-test', version: '1.0.0' });
  clients.push(c);
  await c.connect(transport);
  if (transport.pid) cli.trackPid(transport.pid);
  return c;
}

/** The UTF-8 size of the one text block `fx.big` answers with, asked for 20000 bytes. */
async function bigText(c: Client): Promise<number> {
  const result = await c.callTool({ name: 'fx.big', arguments: { bytes: 20_000 } });
  const content = result.content as Array<{ type: string; text: string }>;
  expect(content).toHaveLength(1);
  return Buffer.byteLength(content[0]!.text);
}

describe('serve.maxResultBytes', () => {
  it('caps every result serve sends; without it the 20000 bytes pass whole', async () => {
    expect(await bigText(await serve(writeConfig([])))).toBe(20_000);
    const size = await bigText(await serve(writeConfig(['serve: { maxResultBytes: 2KiB }'])));
    expect(size).toBeLessThanOrEqual(2048);
    expect(size).toBeGreaterThan(1024);
  }, 90_000);

  it('--max-result-bytes wins over the key', async () => {
    const config = writeConfig(['serve: { maxResultBytes: 2KiB }']);
    const size = await bigText(await serve(config, ['--max-result-bytes', '1KiB']));
    expect(size).toBeLessThanOrEqual(1024);
    expect(size).toBeGreaterThan(512);
  }, 90_000);
});
