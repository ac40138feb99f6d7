import type { ServerResponse } from 'node:http';

/** A JSON body made at the moment of sending; a body that cannot be serialised is a 500 that says why. */
export function sendJson(res: ServerResponse, body: () => unknown): void {
  let text: string;
  try {
    text = JSON.stringify(body());
  } catch (err) {
    send(res, 500, 'application/json', JSON.stringify({ error: String(err) }));
    return;
  }
  send(res, 200, 'application/json; charset=utf-8', text);
}

/** Every reply of the inspector: never cached (it is live and private), never sniffed as another type. */
export function send(res: ServerResponse, status: number, type: string, body: string | Buffer): void {
  res.writeHead(status, {
    'content-type': type,
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  });
  res.end(res.req.method === 'HEAD' ? undefined : body);
}
