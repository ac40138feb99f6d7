import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterEach, describe, expect, it } from 'vitest';
import { SimulatedClock } from 'xstate';
import { createGateway, type HttpGateway, serveHttp } from '../../src/index.js';
import { fixtureServer, fleetConfig, fleets } from '../supervisor/fleet.js';

// A host serves its own fleet to MCP clients without the CLI: the package's createGateway and serveHttp, driven
// by the official SDK client over an in-memory pair and over Streamable HTTP.

const { create, reap } = fleets();
const clients: Client[] = [];
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => {})));
  await Promise.all(closers.splice(0).map((close) => close()));
  await reap();
});

describe('createGateway', () => {
  it('serves the fleet to one client: the fleet starts at its initialize, and it lists and calls', async () => {
    const { sup } = create(fleetConfig([fixtureServer('a')]));
    const gateway = createGateway(sup, { version: '9.9.9' });
    closers.push(() => gateway.close());
    const [ours, theirs] = InMemoryTransport.createLinkedPair();
    let closed = false;
    await gateway.connect(ours, () => {
      closed = true;
    });
    expect(sup.status()[0]?.state).toBe('stopped');
    const client = new Client({ name: 'host-test', version: '1.0.0' });
    clients.push(client);
    await client.connect(theirs);
    expect(client.getServerVersion()).toMatchObject({ name: 'mcp-supervisor', version: '9.9.9' });
    await gateway.started;
    expect(sup.status()[0]?.state).toBe('ready');
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('a.echo');
    const result = await client.callTool({ name: 'a.echo', arguments: { text: 'hi' } });
    expect(result.content).toEqual([{ type: 'text', text: 'hi' }]);
    await gateway.close();
    await gateway.close();
    expect(closed).toBe(true);
    // The fleet is the host's: closing the gateway leaves it running.
    expect(sup.status()[0]?.state).toBe('ready');
  });
});

describe('serveHttp', () => {
  it('serves Streamable HTTP on a free loopback port; a drain done turns /healthz to 503 and close ends the listener', async () => {
    const { sup } = create(fleetConfig([fixtureServer('a')]));
    const http: HttpGateway = await serveHttp(sup, {
      address: { host: '127.0.0.1', port: 0 },
      version: '1.2.3',
    });
    closers.push(() => http.close());
    expect(http.url).toBe(`http://127.0.0.1:${http.port}/mcp`);
    const client = new Client({ name: 'host-test', version: '1.0.0' });
    clients.push(client);
    await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
    const result = await client.callTool({ name: 'a.echo', arguments: { text: 'over http' } });
    expect(result.content).toEqual([{ type: 'text', text: 'over http' }]);
    const health = `http://127.0.0.1:${http.port}/healthz`;
    expect((await fetch(health)).status).toBe(200);
    await http.drain({ delayMs: 0 });
    expect((await fetch(health)).status).toBe(503);
    await http.close();
    await http.close();
    await expect(fetch(health)).rejects.toThrow();
  });
});

describe('serveHttp sessions on an injected clock', () => {
  it('ends a session idle for sessionIdleMs of that clock: its id is then 404', async () => {
    const clock = new SimulatedClock();
    const { sup } = create(fleetConfig([fixtureServer('a')]));
    const http = await serveHttp(sup, {
      address: { host: '127.0.0.1', port: 0 },
      jsonResponse: true,
      sessionIdleMs: 60_000,
      clock,
    });
    closers.push(() => http.close());
    const post = (body: unknown, session?: string) =>
      fetch(http.url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
          ...(session ? { 'Mcp-Session-Id': session, 'Mcp-Protocol-Version': '2025-11-25' } : {}),
        },
        body: JSON.stringify(body),
      });
    const init = await post({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    });
    expect(init.status).toBe(200);
    await init.json();
    const session = init.headers.get('mcp-session-id') ?? '';
    expect(session).not.toBe('');
    const ping = { jsonrpc: '2.0', id: 2, method: 'ping' };
    const alive = await post(ping, session);
    expect(alive.status).toBe(200);
    await alive.json();
    // The answer's response has closed: from now the session is idle. A minute of the clock, and it is gone.
    clock.increment(60_000);
    expect((await post(ping, session)).status).toBe(404);
  });
});
