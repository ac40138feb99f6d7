import { request } from 'node:http';
import { Client, type ClientOptions } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CliProcess, cliProcesses } from './helpers.js';

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
  const proc = cli.spawnCli(['serve', config, '--http', '127.0.0.1:0', '--trust-all', ...args], env);
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
