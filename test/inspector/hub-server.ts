import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Serves `handler` on a free loopback port; its close (every connection too) is pushed onto `cleanups`. */
export async function listenFor(
  handler: RequestListener,
  cleanups: Array<() => void | Promise<void>>,
): Promise<string> {
  const server: Server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  cleanups.push(
    () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}
