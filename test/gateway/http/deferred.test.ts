import { createServer, type Server as HttpServer } from 'node:http';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { CallToolRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { answerDeferred } from '../../../src/gateway/http/deferred.js';
import { MCP_POST, raw } from './helpers.js';

const open: HttpServer[] = [];
afterEach(async () => {
  for (const http of open.splice(0)) {
    http.closeAllConnections();
    await new Promise((r) => http.close(r));
  }
});

/**
 * answerDeferred as serve runs it for a 2026 POST: a stateless transport and Server per request. The tool `log`
 * sends a log message before its answer, `refuse` fails with `code`, any other answers `ok` after `ms`.
 */
async function stateless(): Promise<URL> {
  const http = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const transport = new WebStandardStreamableHTTPServerTransport({});
      const server = new Server(
        { name: 'deferred-test', version: '1.0.0' },
        { capabilities: { tools: {}, logging: {} } },
      );
      server.setRequestHandler(CallToolRequestSchema, async (call, extra) => {
        const args = call.params.arguments ?? {};
        if (call.params.name === 'refuse') throw new McpError(Number(args.code), 'refused');
        if (call.params.name === 'log')
          await extra.sendNotification({
            method: 'notifications/message',
            params: { level: 'info', data: 'first' },
          });
        await new Promise((r) => setTimeout(r, Number(args.ms ?? 0)));
        return { content: [{ type: 'text', text: 'ok' }] };
      });
      await server.connect(transport);
      res.once('close', () => void server.close());
      await answerDeferred(transport, req, res, JSON.parse(Buffer.concat(chunks).toString('utf8')));
    });
  });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  open.push(http);
  return new URL(`http://127.0.0.1:${(http.address() as { port: number }).port}/mcp`);
}

function call(url: URL, name: string, args: Record<string, unknown> = {}) {
  return raw(url, {
    method: 'POST',
    headers: { ...MCP_POST, 'MCP-Protocol-Version': '2025-11-25' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name, arguments: args } }),
  });
}

describe('answerDeferred', () => {
  it('answers a result that comes alone, however late, as one JSON body with 200', async () => {
    const r = await call(await stateless(), 'wait', { ms: 200 });
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('application/json');
    expect(JSON.parse(r.body)).toEqual({
      jsonrpc: '2.0',
      id: 7,
      result: { content: [{ type: 'text', text: 'ok' }] },
    });
  });

  it('gives an error that has an HTTP status that status, and any other error 200, each as a JSON body', async () => {
    const url = await stateless();
    const missing = await call(url, 'refuse', { code: -32021 });
    expect(missing.status).toBe(400);
    expect(missing.headers['content-type']).toBe('application/json');
    expect(JSON.parse(missing.body)).toMatchObject({ id: 7, error: { code: -32021 } });
    const other = await call(url, 'refuse', { code: -32000 });
    expect(other.status).toBe(200);
    expect(JSON.parse(other.body)).toMatchObject({ id: 7, error: { code: -32000 } });
  });

  it('sends an event stream with 200 when a notification comes before the answer, the notification first', async () => {
    const r = await call(await stateless(), 'log');
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('text/event-stream');
    const data = r.body
      .split('\n')
      .filter((l) => l.startsWith('data: '))
      .map((l) => JSON.parse(l.slice(6)));
    expect(data).toEqual([
      expect.objectContaining({ method: 'notifications/message', params: { level: 'info', data: 'first' } }),
      expect.objectContaining({ id: 7, result: { content: [{ type: 'text', text: 'ok' }] } }),
    ]);
  });
});
