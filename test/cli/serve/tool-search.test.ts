import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { MODERN, startHttpServe } from '../../gateway/http/helpers.js';
import { connect, serveClients } from '../../gateway/serve-helpers.js';
import { writeFixtureConfig } from '../helpers.js';

// Tool search end to end: the config's serve.toolSearch over stdio with the SDK v1 client, and --tool-search over
// HTTP with the v2 client speaking 2026-07-28.
const { cli, clients } = serveClients();
const text = (r: object) => ((r as { content?: Array<{ text?: string }> }).content ?? [])[0]?.text;

describe('serve with tool search', () => {
  it('serve.toolSearch over stdio: two tools and the exposed one listed, the fleet found and called', async () => {
    const dir = cli.tempDir();
    const config = writeFixtureConfig(
      dir,
      [{ id: 'fx' }, { id: 'gx' }],
      'serve:\n  toolSearch: { expose: [fx.echo] }\n',
    );
    const client = await connect(cli, clients, config);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual([
      'search_tools',
      'call_tool',
      'fx.echo',
    ]);
    expect(client.getInstructions()).toMatch(/^Tool search is on/);
    const found = await client.callTool({
      name: 'search_tools',
      arguments: { query: 'sum of a and b', limit: 2 },
    });
    const tools = (found.structuredContent as { tools: Array<{ name: string }> }).tools;
    expect(tools.map((t) => t.name).sort()).toEqual(['fx.add', 'gx.add']);
    expect(
      text(
        await client.callTool({
          name: 'call_tool',
          arguments: { name: 'gx.add', arguments: { a: 2, b: 3 } },
        }),
      ),
    ).toBe('5');
  }, 60_000);

  it('--tool-search over HTTP, to a 2026 client', async () => {
    const config = writeFixtureConfig(cli.tempDir(), [{ id: 'fx' }]);
    const serve = await startHttpServe(cli, config, ['--tool-search']);
    const client = new ClientV2(
      { name: 'search-test', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: MODERN } } },
    );
    await client.connect(new HttpV2(serve.url));
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['search_tools', 'call_tool']);
      const found = await client.callTool({ name: 'search_tools', arguments: { query: 'echo text back' } });
      expect((found.structuredContent as { tools: Array<{ name: string }> }).tools[0]?.name).toBe('fx.echo');
      const echoed = await client.callTool({
        name: 'call_tool',
        arguments: { name: 'fx.echo', arguments: { text: 'hi' } },
      });
      expect(text(echoed)).toBe('hi');
    } finally {
      await client.close();
    }
  }, 60_000);
});
