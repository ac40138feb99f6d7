import { createServer, type Server as HttpServer } from 'node:http';
import { connect } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { SessionEventStore } from '../../../src/gateway/http/event-store.js';
import { answerWeb } from '../../../src/gateway/http/web-bridge.js';
import { INITIALIZE, MCP_POST, raw } from './helpers.js';

/** What arrived on one connection: each socket read with the time it came, until the chunked body ended. */
interface Reads {
  chunks: string[];
  at: number[];
  sentAt: number;
}

const open: Array<{ http: HttpServer; transport: WebStandardStreamableHTTPServerTransport }> = [];
afterEach(async () => {
  for (const { http, transport } of open.splice(0)) {
    await transport.close();
    http.closeAllConnections();
    await new Promise((r) => http.close(r));
  }
});

/**
 * A session of the SDK's transport and Server behind answerWeb, as serve runs one; `wait` tool sleeps `ms`. The
 * hold of a stream's first event is `holdMs` (a long one, unless a test is about its bound, so that a loaded
 * machine's pauses cannot pass for it).
 */
async function bridged(holdMs = 5_000): Promise<{ port: number; session: string; store: SessionEventStore }> {
  const store = new SessionEventStore();
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: () => 'session-1',
    eventStore: store,
  });
  const server = new Server(
    { name: 'bridge-test', version: '1.0.0' },
    { capabilities: { tools: {}, logging: {} } },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [] }));
  server.setRequestHandler(CallToolRequestSchema, async (req, extra) => {
    const ms = Number(req.params.arguments?.ms ?? 0);
    if (req.params.arguments?.log)
      await extra.sendNotification({
        method: 'notifications/message',
        params: { level: 'info', data: 'started' },
      });
    await new Promise((r) => setTimeout(r, ms));
    return { content: [{ type: 'text', text: `waited ${ms}` }] };
  });
  await server.connect(transport);
  const http = createServer((req, res) => void answerWeb(transport, req, res, { holdMs, store }));
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  open.push({ http, transport });
  const port = (http.address() as { port: number }).port;
  const url = new URL(`http://127.0.0.1:${port}/mcp`);
  const init = await raw(url, { method: 'POST', headers: MCP_POST, body: INITIALIZE });
  expect(init.status).toBe(200);
  const session = String(init.headers['mcp-session-id']);
  const headers = { ...MCP_POST, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
  const done = await raw(url, {
    method: 'POST',
    headers,
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  expect(done.status).toBe(202);
  return { port, session, store };
}

/** Whether a whole response is in: a chunked body's last chunk, or as many bytes as its Content-Length says. */
function complete(text: string): boolean {
  if (text.endsWith('0\r\n\r\n')) return true;
  const split = text.indexOf('\r\n\r\n');
  const length = /\r\ncontent-length: (\d+)\r\n/i.exec(text.slice(0, split));
  return split >= 0 && length !== null && Buffer.byteLength(text.slice(split + 4)) >= Number(length[1]);
}

/** A tools/call POST on a raw socket: every read kept until the response is whole (bounded), and the first. */
function callOnSocket(
  port: number,
  session: string,
  ms: number,
  opts: { log?: boolean } = {},
): { firstRead: Promise<void>; done: Promise<Reads> } {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 2,
    method: 'tools/call',
    params: { name: 'wait', arguments: { ms, log: opts.log } },
  });
  const request = [
    'POST /mcp HTTP/1.1',
    `Host: 127.0.0.1:${port}`,
    'Content-Type: application/json',
    'Accept: application/json, text/event-stream',
    `Mcp-Session-Id: ${session}`,
    'Mcp-Protocol-Version: 2025-11-25',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
    '',
    body,
  ].join('\r\n');
  let first: () => void = () => {};
  const firstRead = new Promise<void>((resolve) => {
    first = resolve;
  });
  const done = new Promise<Reads>((resolve, reject) => {
    const reads: Reads = { chunks: [], at: [], sentAt: Date.now() };
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no end of the answer within 10 s; read: ${JSON.stringify(reads.chunks)}`));
    }, 10_000);
    socket.setEncoding('utf8');
    socket.on('data', (c: string) => {
      reads.chunks.push(c);
      reads.at.push(Date.now());
      first();
      if (complete(reads.chunks.join(''))) {
        clearTimeout(timer);
        socket.destroy();
        resolve(reads);
      }
    });
    socket.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
  });
  return { firstRead, done };
}

describe('answerWeb', () => {
  it('answers a call whose answer comes alone as one JSON body, with the session id, in one write', async () => {
    const { port, session } = await bridged();
    // 300 ms: long enough for this process's loop to read the socket in between, were the head sent first
    const reads = await callOnSocket(port, session, 300).done;
    expect(reads.chunks).toHaveLength(1);
    const [head, body] = reads.chunks[0]!.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 200/);
    expect(head).toMatch(/\r\ncontent-type: application\/json\r\n/i);
    expect(head).toMatch(/\r\nmcp-session-id: session-1\r\n/i);
    expect(JSON.parse(body!)).toEqual({
      jsonrpc: '2.0',
      id: 2,
      result: { content: [{ type: 'text', text: 'waited 300' }] },
    });
  });

  it("drops from the session's store the events of answers sent alone, and keeps a streamed answer's", async () => {
    const { port, session, store } = await bridged(150);
    // the initialize answer went out alone too: nothing of it is kept
    expect(store.size).toBe(0);
    expect((await callOnSocket(port, session, 0).done).chunks.join('')).toContain('application/json');
    expect(store.size).toBe(0);
    // slower than the hold: a stream whose client holds an id to resume from, so its events stay
    expect((await callOnSocket(port, session, 1_000).done).chunks.join('')).toContain('text/event-stream');
    expect(store.size).toBe(2);
  });

  it('sends the event stream as soon as something comes before the answer, that first', async () => {
    const { port, session } = await bridged();
    const call = callOnSocket(port, session, 1_000, { log: true });
    const reads = await call.done;
    const first = reads.chunks[0]!;
    expect(first).toMatch(/^HTTP\/1\.1 200/);
    expect(first).toMatch(/\r\ncontent-type: text\/event-stream\r\n/i);
    expect(first).toMatch(/\r\nid: [^\r\n]+\r?\n/);
    expect(first).toContain('"data":"started"');
    expect(first).not.toContain('waited');
    // the notification came at once, not with the answer (at 1 s) nor when the hold (5 s) passed
    expect(reads.at[reads.at.length - 1]! - reads.at[0]!).toBeGreaterThan(500);
    expect(reads.chunks.join('')).toContain('"text":"waited 1000"');
  });

  it("sends a slow call's head and priming event when the hold's bound has passed, its answer on the stream", async () => {
    const { port, session } = await bridged(50);
    const reads = await callOnSocket(port, session, 1_000).done;
    expect(reads.chunks.length).toBeGreaterThanOrEqual(2);
    expect(reads.chunks[0]).toMatch(/^HTTP\/1\.1 200/);
    expect(reads.chunks[0]).toMatch(/\r\ncontent-type: text\/event-stream\r\n/i);
    expect(reads.chunks[0]).toMatch(/\r\nid: [^\r\n]+\r?\n/);
    expect(reads.chunks[0]).not.toContain('waited');
    // the head came long before the answer (at 1 s), not with it
    expect(reads.at[reads.at.length - 1]! - reads.at[0]!).toBeGreaterThan(500);
    expect(reads.chunks.join('')).toContain('"text":"waited 1000"');
  });
});
