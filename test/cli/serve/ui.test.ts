import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { httpClient, startHttpServe } from '../../gateway/http/helpers.js';
import { serveClients } from '../../gateway/serve-helpers.js';
import { BIN, ROOT, writeFixtureConfig } from '../helpers.js';

// `serve --ui`: the inspector's "Recent calls" shows the calls the clients of `serve` make.
const { cli, clients } = serveClients();
const UI_URL = /inspector UI at (http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+)/;

/** Reads the page's event stream until a frame names a call of `tool`; its text. */
async function callSeen(ui: string, tool: string): Promise<string> {
  const { origin, searchParams } = new URL(ui);
  const ctl = new AbortController();
  const res = await fetch(`${origin}/events?token=${searchParams.get('token')}`, { signal: ctl.signal });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`the stream ended before a call of ${tool}:\n${text}`);
      text += decoder.decode(value, { stream: true });
      const frame = text.split('\n\n').find((f) => f.includes(`"tool":"${tool}"`));
      if (frame) return frame;
    }
  } finally {
    ctl.abort();
  }
}

describe('serve --ui', () => {
  it('over stdio: the page shows the call a client made, with its outcome', async () => {
    const config = writeFixtureConfig(cli.tempDir(), [{ id: 'fx' }]);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'serve', config, '--trust-all', '--ui', '0'],
      cwd: ROOT,
      env: { ...(process.env as Record<string, string>), MCP_SUPERVISOR_TRUST_STORE: `${config}.trust.json` },
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr!.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    const client = new Client({ name: 'ui-test', version: '1.0.0' });
    clients.push(client);
    await client.connect(transport);
    if (transport.pid) cli.trackPid(transport.pid);
    await client.callTool({ name: 'fx.echo', arguments: { text: 'hi' } });
    const ui = UI_URL.exec(stderr)?.[1];
    expect(ui, stderr).toBeDefined();
    expect(await callSeen(ui!, 'fx.echo')).toMatch(/"tool":"fx\.echo","at":\d+,"ms":[\d.]+,"code":"OK"/);
  }, 30_000);

  it('over HTTP: the same', async () => {
    const config = writeFixtureConfig(cli.tempDir(), [{ id: 'fx' }]);
    const serve = await startHttpServe(cli, config, ['--ui', '0']);
    const { client } = await httpClient(serve.url, clients);
    await client.callTool({ name: 'fx.echo', arguments: { text: 'hi' } });
    const ui = UI_URL.exec(serve.proc.stderr())?.[1];
    expect(ui, serve.proc.stderr()).toBeDefined();
    expect(await callSeen(ui!, 'fx.echo')).toMatch(/"tool":"fx\.echo","at":\d+,"ms":[\d.]+,"code":"OK"/);
  }, 30_000);
});
