// `serve --http` holding many idle 2025 sessions: its memory per session (RSS and, from its own report, heap),
// and one call's latency with them open against the same call with none.
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { bareHttpClient } from '../lib/http-bare-client.js';
import { startServeHttp } from '../lib/http-contenders.js';
import { median } from '../lib/stats.js';

function rssKiB(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) : Number.NaN;
}

/** Opens one 2025 session (initialize, then initialized) and leaves it idle. */
function openSession(url: URL, agent: Agent): Promise<void> {
  const post = (body: string, session?: string) =>
    new Promise<string | undefined>((resolve, reject) => {
      const req = request(
        url,
        {
          method: 'POST',
          agent,
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-protocol-version': '2025-11-25',
            ...(session ? { 'mcp-session-id': session } : {}),
          },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.headers['mcp-session-id'] as string | undefined));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  return post(
    '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"idle","version":"1"}}}',
  ).then((id) => post('{"jsonrpc":"2.0","method":"notifications/initialized"}', id).then(() => {}));
}

export async function idleSessions(
  n: number,
): Promise<{ rssPerSessionKiB: number; before: number; with: number }> {
  const serve = await startServeHttp('dist', { serveArgs: ['--max-sessions', String(n + 10)] });
  const agent = new Agent({ keepAlive: true, maxSockets: 16 });
  try {
    const client = await bareHttpClient(serve, 'fx.');
    const time = async () => {
      const ms: number[] = [];
      for (let i = 0; i < 200; i++) {
        const t0 = performance.now();
        await client.call('echo', { text: 'x' });
        ms.push(performance.now() - t0);
      }
      return median(ms);
    };
    const before = await time();
    const rss0 = rssKiB(serve.pid);
    for (let i = 0; i < n; i += 16)
      await Promise.all(Array.from({ length: Math.min(16, n - i) }, () => openSession(serve.url, agent)));
    const rss1 = rssKiB(serve.pid);
    const withOpen = await time();
    await client.close();
    return { rssPerSessionKiB: (rss1 - rss0) / n, before, with: withOpen };
  } finally {
    agent.destroy();
    await serve.close();
  }
}
