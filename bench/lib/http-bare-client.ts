// A bare Streamable HTTP client for the HTTP benchmark: node:http with kept-alive sockets, one 2025 session, each
// call one POST whose answer is read as JSON or as an event stream's `data:` lines. No schema validation, no fetch,
// no SSE parser objects: it costs a fraction of the SDK client, so the rows it drives show what the servers can do.
import { Agent, request } from 'node:http';
import { BenchError } from './bench-error.js';
import type { Contender } from './contenders.js';
import type { HttpServerProcess } from './http-contenders.js';

const VERSION = '2025-11-25';

interface Answer {
  id?: unknown;
  result?: { content?: Array<{ type?: string; text?: string }> };
  error?: { message?: string };
}

/** The JSON-RPC answer with `id` in a body that is one JSON message or an event stream. */
function answerIn(body: string, type: string, id: number): Answer | undefined {
  if (!type.startsWith('text/event-stream')) return body ? (JSON.parse(body) as Answer) : undefined;
  for (const line of body.split('\n')) {
    if (!line.startsWith('data:')) continue;
    const data = line.slice(5).trim();
    if (!data) continue;
    const message = JSON.parse(data) as Answer;
    if (message.id === id) return message;
  }
  return undefined;
}

/** A bare client of `server`, its session initialized; `prefix` goes before the fixture's tool names. */
export async function bareHttpClient(server: HttpServerProcess, prefix: string): Promise<Contender> {
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  let session: string | undefined;
  let next = 0;
  const post = (message: Record<string, unknown>): Promise<{ status: number; type: string; body: string }> =>
    new Promise((resolve, reject) => {
      const body = JSON.stringify(message);
      const req = request(
        server.url,
        {
          method: 'POST',
          agent,
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'content-length': Buffer.byteLength(body),
            'mcp-protocol-version': VERSION,
            ...(session ? { 'mcp-session-id': session } : {}),
          },
        },
        (res) => {
          const id = res.headers['mcp-session-id'];
          if (typeof id === 'string') session = id;
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => {
            text += c;
          });
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'] ?? '', body: text }),
          );
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  const call = async (method: string, params: Record<string, unknown>): Promise<Answer> => {
    const id = next++;
    const { status, type, body } = await post({ jsonrpc: '2.0', id, method, params });
    const answer = answerIn(body, type, id);
    if (status !== 200 || !answer)
      throw new BenchError('WRONG_ANSWER', `HTTP ${status}: ${body.slice(0, 200)}`);
    if (answer.error) throw new BenchError('WRONG_ANSWER', `${method}: ${answer.error.message}`);
    return answer;
  };
  await call('initialize', {
    protocolVersion: VERSION,
    capabilities: {},
    clientInfo: { name: 'http-bench-bare', version: '0.0.0' },
  });
  await post({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return {
    pid: () => server.pid,
    call: async (tool, args) => {
      const first = (await call('tools/call', { name: `${prefix}${tool}`, arguments: args })).result
        ?.content?.[0];
      return first?.type === 'text' && typeof first.text === 'string' ? first.text : '';
    },
    close: async () => {
      agent.destroy();
    },
  };
}
