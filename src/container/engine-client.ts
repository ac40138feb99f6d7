import Docker from 'dockerode';

/** Where a client dials an engine: a unix socket, or a host and port (plain HTTP). */
export type EngineDial = { socketPath: string } | { host: string; port: number };

/** `unix:///path` or `tcp://host:port` → what to dial; undefined for any other form. */
export function dialOf(address: string): EngineDial | undefined {
  if (address.startsWith('unix://')) {
    const socketPath = address.slice('unix://'.length);
    return socketPath.startsWith('/') ? { socketPath } : undefined;
  }
  const m = /^tcp:\/\/(\[[^\]]+\]|[^:/]+):(\d{1,5})\/?$/.exec(address);
  if (!m) return undefined;
  const port = Number(m[2]);
  return port > 0 && port < 65536 ? { host: (m[1] as string).replace(/^\[|\]$/g, ''), port } : undefined;
}

/** The bound on one short engine call (create, start, inspect, remove, …) when the caller gives none. */
export const ENGINE_CALL_MS = 30_000;

const clients = new Map<string, Docker>();

/**
 * One client per engine address and bound. The bound is an idle timeout on each request, so a client meant for
 * `wait` (which may hang for as long as the server lives) is made with none.
 */
export function engineClient(address: string, timeoutMs: number | 0 = ENGINE_CALL_MS): Docker {
  const key = `${address}\0${timeoutMs}`;
  let client = clients.get(key);
  if (client) return client;
  const dial = dialOf(address);
  if (!dial) throw Object.assign(new Error(`not an engine address: ${address}`), { code: 'ENGINE_ADDRESS' });
  const timeout = timeoutMs > 0 ? { timeout: timeoutMs } : {};
  client =
    'socketPath' in dial
      ? new Docker({ socketPath: dial.socketPath, ...timeout })
      : new Docker({ host: dial.host, port: dial.port, protocol: 'http', ...timeout });
  clients.set(key, client);
  return client;
}
