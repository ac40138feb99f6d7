import { Counter, Gauge, type Registry } from 'prom-client';
import type { ServerLoad } from '../supervisor/runtime/load.js';
import type { ServerState, ServerStatus } from '../supervisor/types.js';

/** Every state a server may be in: each gets a series, 1 for the current one, so a dashboard sees all of them. */
export const SERVER_STATES: readonly ServerState[] = [
  'spawning',
  'approving',
  'handshaking',
  'ready',
  'wedged',
  'stopping',
  'backoff',
  'failed',
  'stopped',
  'untrusted',
];

/** What the fleet is now, read from `status()` and `load()` at each scrape: nothing is kept between scrapes. */
export interface FleetReadings {
  status(): ServerStatus[];
  load(): ServerLoad[];
}

/** Registers the gauges read at scrape time; `prefix` starts every name. */
export function registerFleetGauges(registry: Registry, prefix: string, fleet: FleetReadings): void {
  const registers = [registry];
  new Gauge({
    name: `${prefix}server_state`,
    help: 'Whether the server is in this state now (1) or not (0)',
    labelNames: ['server', 'state'] as const,
    registers,
    collect() {
      this.reset();
      for (const row of fleet.status())
        for (const state of SERVER_STATES) this.set({ server: row.id, state }, row.state === state ? 1 : 0);
    },
  });
  new Gauge({
    name: `${prefix}server_tools`,
    help: 'Tools the server exposes now',
    labelNames: ['server'] as const,
    registers,
    collect() {
      this.reset();
      for (const row of fleet.status()) this.set({ server: row.id }, row.tools);
    },
  });
  const load = (
    name: string,
    help: string,
    pick: (row: ServerLoad) => number | undefined,
    kind: 'gauge' | 'counter' = 'gauge',
  ) => {
    const config = {
      name: `${prefix}${name}`,
      help,
      labelNames: ['server'] as const,
      registers,
    };
    if (kind === 'gauge')
      new Gauge({
        ...config,
        collect() {
          this.reset();
          for (const row of fleet.load()) this.set({ server: row.id }, pick(row) ?? 0);
        },
      });
    else
      new Counter({
        ...config,
        collect() {
          // Counted by the current process's pipes: a restart starts them at 0, which Prometheus reads as a reset.
          this.reset();
          for (const row of fleet.load()) {
            const value = pick(row);
            if (value !== undefined) this.inc({ server: row.id }, value);
          }
        },
      });
  };
  load('calls_in_flight', 'Tool calls under way to the server', (r) => r.callsInFlight);
  load(
    'outgoing_queue_bytes',
    'Bytes written for the server and not yet taken by it (its outgoing queue)',
    (r) => r.queuedBytes,
  );
  load(
    'outgoing_dropped_messages',
    "Messages refused since the server's outgoing queue hit its bound (current process)",
    (r) => r.droppedMessages,
  );
  load(
    'server_read_bytes_total',
    "Bytes read from the server's stdout by its current process (stdio servers)",
    (r) => r.readBytes,
    'counter',
  );
  load(
    'server_written_bytes_total',
    "Bytes written to the server's stdin for its current process (stdio servers)",
    (r) => r.writtenBytes,
    'counter',
  );
}
