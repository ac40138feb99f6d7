import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { McpConnection } from '../../src/protocol/connection.js';

// A loopback HTTP peer answering each POST as the case says, recording the JSON-RPC methods it was sent.
type Answer = (body: { id: unknown; method: string }, res: ServerResponse) => void;
const servers: Server[] = [];
const opened: McpConnection[] = [];

afterEach(async () => {
  await Promise.all(opened.splice(0).map((c) => c.close('stopped', { immediate: true })));
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

async function peer(answer: Answer): Promise<{ url: string; methods: string[] }> {
  const methods: string[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST') return void res.writeHead(405).end();
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: unknown; method: string };
      methods.push(body.method);
      answer(body, res);
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, methods };
}

function connect(url: string): McpConnection {
  const conn = new McpConnection({
    serverId: 'remote',
    command: '',
    args: [],
    cwd: process.cwd(),
    env: {},
    remote: { url, headers: {} },
    startupMs: 3000,
    shutdownMs: 500,
  });
  opened.push(conn);
  return conn;
}

const json = (res: ServerResponse, status: number, body: unknown) =>
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

describe('the era probe of a url: server under protocol: auto', () => {
  it('a 400 carrying a 2026 version error that names only other 2026 versions is a refusal, not a fallback', async () => {
    const p = await peer((body, res) =>
      json(res, 400, {
        jsonrpc: '2.0',
        id: body.id,
        error: { code: -32022, message: 'Unsupported protocol version', data: { supported: ['2027-03-01'] } },
      }),
    );
    const err = await connect(p.url)
      .initialize()
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'UNSUPPORTED_PROTOCOL', data: { supported: ['2027-03-01'] } });
    expect(p.methods).toEqual(['server/discover']);
  });

  it('an answer on an event stream, after a notification, is read to the result: the server is modern', async () => {
    const p = await peer((body, res) => {
      if (body.method !== 'server/discover')
        return json(res, 200, { jsonrpc: '2.0', id: body.id, result: {} });
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(': hello\n\n');
      res.write(
        `data: ${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: {} })}\n\n`,
      );
      const result = { supportedVersions: ['2026-07-28'], capabilities: { tools: {} } };
      res.end(`event: message\r\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: body.id, result })}\r\n\r\n`);
    });
    const conn = connect(p.url);
    expect(await conn.initialize()).toMatchObject({ protocolVersion: '2026-07-28' });
    expect(conn.era).toBe('modern');
    expect(p.methods).toEqual(['server/discover']);
  });
});
