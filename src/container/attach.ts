import { request } from 'node:http';
import type { Socket } from 'node:net';
import { engineConnection } from './engine-address.js';

/**
 * Attaches to a created container's stdin, stdout and stderr over an HTTP upgrade, as the engine API defines it.
 * Done by hand rather than through dockerode: its hijacked attach sends the options as a request body that never
 * ends, and Podman's service never answers it. Resolves with the raw socket (frames in, stdin bytes out); a
 * bound on the upgrade, never on the socket's life.
 */
export function attachStdio(address: string, containerId: string, timeoutMs: number): Promise<Socket> {
  let dial: ReturnType<typeof engineConnection>;
  try {
    dial = engineConnection(address);
  } catch (err) {
    return Promise.reject(err);
  }
  return new Promise<Socket>((resolve, reject) => {
    const req = request({
      ...dial,
      method: 'POST',
      path: `/v1.41/containers/${encodeURIComponent(containerId)}/attach?stream=1&stdin=1&stdout=1&stderr=1`,
      headers: { Connection: 'Upgrade', Upgrade: 'tcp', 'Content-Length': '0' },
    });
    const timer = setTimeout(() => {
      req.destroy(
        Object.assign(new Error(`attach did not answer within ${timeoutMs} ms`), { code: 'ENGINE_TIMEOUT' }),
      );
    }, timeoutMs);
    req.on('upgrade', (_res, socket, head) => {
      clearTimeout(timer);
      socket.setNoDelay(true);
      // Bytes that came with the upgrade's answer are the first frames: put them back in front.
      if (head.length > 0) socket.unshift(head);
      resolve(socket);
    });
    req.on('response', (res) => {
      clearTimeout(timer);
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => {
        if (body.length < 4096) body += d;
      });
      res.on('end', () =>
        reject(
          Object.assign(new Error(body.trim() || `attach answered ${res.statusCode}`), {
            statusCode: res.statusCode,
          }),
        ),
      );
    });
    req.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    req.end();
  });
}
