import { request } from 'node:http';
import { Readable } from 'node:stream';

/**
 * A `fetch` that sends every request to 127.0.0.1:`port` under another `Host`: a published port is not the one
 * the listener knows, and its Host check answers only its own names (fetch itself never lets Host be set).
 */
export function fetchAs(host: string, port: number): typeof fetch {
  return (input, init) =>
    new Promise<Response>((resolve, reject) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      const headers = Object.fromEntries(new Headers(init?.headers));
      const req = request(
        { host: '127.0.0.1', port, path: url.pathname + url.search, method: init?.method ?? 'GET' },
        (res) => {
          const answer = new Headers();
          for (const [name, value] of Object.entries(res.headers))
            if (value !== undefined) answer.set(name, Array.isArray(value) ? value.join(', ') : value);
          const status = res.statusCode ?? 502;
          const empty = status === 204 || status === 304 || req.method === 'HEAD';
          if (empty) res.resume();
          const body = empty ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>);
          resolve(new Response(body, { status, headers: answer }));
        },
      );
      for (const [name, value] of Object.entries(headers)) req.setHeader(name, value);
      req.setHeader('host', host);
      req.on('error', reject);
      init?.signal?.addEventListener('abort', () => req.destroy(new Error('aborted')), { once: true });
      req.end(typeof init?.body === 'string' ? init.body : undefined);
    });
}
