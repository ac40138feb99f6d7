import { Registry } from 'prom-client';
import type { Supervisor } from '../supervisor/supervisor.js';
import { DEFAULT_CALL_BUCKETS, FleetCounters } from './fleet-counters.js';
import { registerFleetGauges } from './fleet-gauges.js';

/** The default start of every metric name. */
export const METRICS_PREFIX = 'mcp_supervisor_';

export interface SupervisorMetricsOptions {
  /** Starts every metric name; default `mcp_supervisor_`. */
  prefix?: string;
  /** The call latency histogram's buckets, in seconds. */
  buckets?: readonly number[];
  /** A registry of the host's to add to; default a new one (never prom-client's global registry). */
  registry?: Registry;
}

/** A fleet's Prometheus metrics (docs/observability.md): mount `text()` at `/metrics` with `contentType`. */
export interface SupervisorMetrics {
  readonly registry: Registry;
  /** The exposition format's content type, for the response header. */
  readonly contentType: string;
  /** The text exposition of every metric, read now. */
  text(): Promise<string>;
  /** Stops listening to the supervisor (idempotent); the registry keeps what it has. */
  close(): void;
}

/** What the metrics read of a supervisor. */
export type MetricsSource = Pick<Supervisor, 'subscribe' | 'onCall' | 'status' | 'load'>;

/**
 * Prometheus metrics of one supervisor, in a registry of their own: states, restarts, exits, health failures and
 * notices from its events; calls by outcome, latency and result bytes from `onCall`; calls in flight, queue depths
 * and pipe bytes read at each scrape. Attached, it costs each call one record; unattached, nothing.
 */
export function supervisorMetrics(
  sup: MetricsSource,
  opts: SupervisorMetricsOptions = {},
): SupervisorMetrics {
  const registry = opts.registry ?? new Registry();
  const prefix = opts.prefix ?? METRICS_PREFIX;
  const counters = new FleetCounters(registry, prefix, opts.buckets ?? DEFAULT_CALL_BUCKETS);
  registerFleetGauges(registry, prefix, sup);
  for (const row of sup.status()) counters.known(row.id);
  const unsubscribe = [sup.subscribe((e) => counters.event(e)), sup.onCall((r) => counters.call(r))];
  return {
    registry,
    contentType: registry.contentType,
    text: () => registry.metrics(),
    close: () => {
      for (const off of unsubscribe.splice(0)) off();
    },
  };
}
