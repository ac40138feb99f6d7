import { describe, expect, it } from 'vitest';
import { sleep } from '../cli/helpers.js';
import { connect, serveClients, writeConfig } from './serve-helpers.js';

const { cli, clients } = serveClients();

async function until<T>(get: () => Promise<T | undefined>, ms: number, what: string): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await get();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

describe('serve: instructions and capabilities', () => {
  it('composes one instructions text naming each server that gave any', async () => {
    const { config } = writeConfig(cli.tempDir());
    const client = await connect(cli, clients, config);
    const text = client.getInstructions() ?? '';
    expect(text).toContain("'<server>.<name>'");
    expect(text).toContain('## ev (mcp-servers/everything ');
    expect(text).toContain('Everything Server');
    // The fixture gives no instructions, so it has no part.
    expect(text).not.toContain('## fx');
  }, 60_000);

  it('declares the same capabilities whatever the fleet, and keeps them across a server restart', async () => {
    const { config } = writeConfig(cli.tempDir());
    const client = await connect(cli, clients, config);
    const before = client.getServerCapabilities();
    expect(before?.tools).toEqual({ listChanged: true });
    // A crash of a server restarts it; the session and what it declared stay.
    await client.callTool({ name: 'fx.crash', arguments: {} }).catch(() => {});
    const echoed = await until(
      async () => {
        const r = await client.callTool({ name: 'fx.echo', arguments: { text: 'back' } });
        return r.isError ? undefined : r.content;
      },
      15_000,
      'the restarted fixture to answer',
    );
    expect(echoed).toEqual([{ type: 'text', text: 'back' }]);
    expect(client.getServerCapabilities()).toEqual(before);
  }, 60_000);
});
