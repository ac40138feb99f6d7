import type { ServerConfig, SupervisorConfig } from '../config/types.js';

/**
 * Stops a fleet in reverse file order. Under `one_for_one` the servers are independent of each other: every stop
 * is sent at once, still in reverse order, and the exits are awaited together, so a fleet of hundreds stops in
 * about one server's shutdown time rather than the sum of them all. Under `one_for_all` and `rest_for_one` a later
 * server may depend on an earlier one (that is what the strategies say), so each is down before the one before it
 * is told to stop.
 */
export async function stopInReverse(
  strategy: SupervisorConfig['supervisor']['strategy'],
  servers: readonly ServerConfig[],
  stopOne: (server: ServerConfig) => Promise<unknown>,
): Promise<void> {
  const order = [...servers].reverse();
  if (strategy === 'one_for_one') {
    await Promise.all(order.map(stopOne));
    return;
  }
  for (const server of order) await stopOne(server);
}
