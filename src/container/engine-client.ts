import Docker from 'dockerode';
import { engineConnection } from './engine-address.js';

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
  const dial = engineConnection(address);
  const timeout = timeoutMs > 0 ? { timeout: timeoutMs } : {};
  // Named outright: the client's defaults read DOCKER_HOST, which would win over a socket path given alone.
  client =
    'socketPath' in dial
      ? new Docker({ socketPath: dial.socketPath, host: undefined, ...timeout })
      : new Docker({ host: dial.host, port: dial.port, protocol: 'http', ...timeout });
  clients.set(key, client);
  return client;
}
