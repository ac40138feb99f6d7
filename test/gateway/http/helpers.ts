import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { Client, type ClientOptions } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CliProcess, cliProcesses } from '../../cli/helpers.js';

/** A `serve --http` subprocess and the endpoint it printed. */
export interface HttpServe {
  proc: CliProcess;
  url: URL;
}

/** Starts `serve CONFIG --http …` and waits for its `listening on` line. */
export async function startHttpServe(
  cli: ReturnType<typeof cliProcesses>,
  config: string,
  args: string[] = [],
  env: NodeJS.ProcessEnv = {},
): Promise<HttpServe> {
  // A config without serve.auth serves its tests' loopback clients without the per-run token.
  const open = /\bauth:/.test(readFileSync(config, 'utf8')) ? [] : ['--no-auth'];
  const proc = cli.spawnCli(['serve', config, '--http', '127.0.0.1:0', '--trust-all', ...open, ...args], env);
  await proc.waitFor(/^listening on http:\/\/127\.0\.0\.1:\d+\/mcp$/m, 15_000);
  const line = /^listening on (\S+)$/m.exec(proc.stderr())?.[1] ?? '';
  return { proc, url: new URL(line) };
}

/** An SDK client over Streamable HTTP, connected; `headers` go with every request (Authorization, say). */
export async function httpClient(
  url: URL,
  clients: Client[],
  opts: { headers?: Record<string, string>; client?: ClientOptions; before?: (c: Client) => void } = {},
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(url, {
    requestInit: { headers: opts.headers ?? {} },
  });
  const client = new Client({ name: 'http-test', version: '1.0.0' }, opts.client);
  clients.push(client);
  opts.before?.(client);
  await client.connect(transport);
  return { client, transport };
}

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One HTTP request with exactly these headers (a forged `Host` included), its answer read whole. */
export function raw(
  url: URL,
  opts: { method?: string; path?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        method: opts.method ?? 'GET',
        path: opts.path ?? url.pathname,
        headers: opts.headers ?? {},
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          body += c;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}

/** The headers an MCP POST needs, for `raw`. */
export const MCP_POST = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };

/** An `initialize` request body. */
export const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

/** One server-sent event as read off the wire. */
export interface SseEvent {
  id?: string;
  retry?: string;
  data: string;
}

/** An SSE response being read: its status, the events so far, and a way to drop the connection. */
export interface SseStream {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  events: SseEvent[];
  /** Everything received so far, as it came (a refusal's JSON body). */
  text(): string;
  /** Settles when the response ended or its connection closed. */
  ended: Promise<void>;
  close(): void;
}

/** Opens a request whose answer is an SSE stream and collects its events as they come. */
export function sse(
  url: URL,
  opts: { method?: string; headers?: Record<string, string>; body?: string },
): Promise<SseStream> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        method: opts.method ?? 'GET',
        path: url.pathname,
        headers: opts.headers,
      },
      (res) => {
        const events: SseEvent[] = [];
        let buffer = '';
        let all = '';
        const ended = new Promise<void>((done) => {
          res.once('end', done);
          res.once('close', done);
        });
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          all += chunk;
          buffer += chunk;
          for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            if (block.startsWith(':')) continue;
            const event: SseEvent = { data: '' };
            for (const line of block.split('\n')) {
              const colon = line.indexOf(':');
              const key = line.slice(0, colon);
              const value = line.slice(colon + 1).replace(/^ /, '');
              if (key === 'id') event.id = value;
              else if (key === 'retry') event.retry = value;
              else if (key === 'data') event.data += value;
            }
            events.push(event);
          }
        });
        res.on('error', () => {});
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          events,
          text: () => all,
          ended,
          close: () => req.destroy(),
        });
      },
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}

/** The 2026 revision, as its requests name it. */
export const MODERN = '2026-07-28';

/** Opens a 2026 `subscriptions/listen` stream asking for tool list changes; `headers` adds to those it needs. */
export function listen2026(url: URL, id: number, headers: Record<string, string> = {}): Promise<SseStream> {
  const meta = {
    'io.modelcontextprotocol/protocolVersion': MODERN,
    'io.modelcontextprotocol/clientCapabilities': {},
    'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
  };
  return sse(url, {
    method: 'POST',
    headers: {
      ...MCP_POST,
      'MCP-Protocol-Version': MODERN,
      'Mcp-Method': 'subscriptions/listen',
      ...headers,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: 'subscriptions/listen',
      params: { notifications: { toolsListChanged: true }, _meta: meta },
    }),
  });
}
