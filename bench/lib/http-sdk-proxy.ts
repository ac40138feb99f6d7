// The SDK's own answer to "serve this stdio server over HTTP": its StreamableHTTPServerTransport and Server, one
// per session, whose tools/list and tools/call handlers forward to one SDK Client over stdio to the fixture. No
// supervision, no namespacing, no caps: what a host would write with the SDK alone. Run as its own process:
//   node --import tsx bench/lib/http-sdk-proxy.ts   (prints `listening on http://127.0.0.1:PORT/mcp` on stderr)
// HTTP_BENCH_PROXY_JSON=1: its transports answer every POST with one JSON body (`enableJsonResponse`), as the
// SDK offers for clients that need no progress; a side measurement, not the default the bench compares with.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { FIXTURE } from './http-fixture.js';

const limits = { timeout: 60_000, maxTotalTimeout: 60_000 };
const upstream = new Client({ name: 'sdk-proxy', version: '0.0.0' });
const stdio = new StdioClientTransport({ command: process.execPath, args: [FIXTURE], stderr: 'pipe' });
stdio.stderr?.on('data', () => {});
await upstream.connect(stdio, limits);

/** One session's MCP server, forwarding to the shared upstream client. */
function sessionServer(): Server {
  const server = new Server({ name: 'sdk-proxy', version: '0.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, (req) => upstream.listTools(req.params, limits));
  server.setRequestHandler(CallToolRequestSchema, (req) => upstream.callTool(req.params, undefined, limits));
  return server;
}

const sessions = new Map<string, StreamableHTTPServerTransport>();
const http = createServer((req, res) => {
  const id = req.headers['mcp-session-id'];
  const known = typeof id === 'string' ? sessions.get(id) : undefined;
  if (known) {
    void known.handleRequest(req, res);
    return;
  }
  if (req.method !== 'POST' || id !== undefined) {
    res.writeHead(404, { 'Content-Type': 'application/json' }).end('{"error":"no such session"}');
    return;
  }
  // No session yet: the transport itself checks that this is an initialize.
  const transport = new StreamableHTTPServerTransport({
    enableJsonResponse: process.env.HTTP_BENCH_PROXY_JSON === '1',
    sessionIdGenerator: () => randomUUID(),
    onsessioninitialized: (sid) => void sessions.set(sid, transport),
  });
  transport.onclose = () => {
    if (transport.sessionId) sessions.delete(transport.sessionId);
  };
  void sessionServer()
    .connect(transport)
    .then(() => transport.handleRequest(req, res));
});

http.listen(0, '127.0.0.1', () => {
  const { port } = http.address() as AddressInfo;
  process.stderr.write(`listening on http://127.0.0.1:${port}/mcp\n`);
});

const stop = () => {
  http.close();
  http.closeAllConnections();
  void Promise.allSettled([...sessions.values()].map((t) => t.close()))
    .then(() => upstream.close())
    .then(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
