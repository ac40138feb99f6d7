import { Counter, Histogram, type Registry } from 'prom-client';
import type { CallRecord } from '../supervisor/calls/records.js';
import type { ServerState, SupervisorEvent } from '../supervisor/types.js';

/** Call latency buckets, in seconds: from a local echo to a slow tool near the default call timeout. */
export const DEFAULT_CALL_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/** States a start comes from; entering `spawning` from any other is a restart. */
const AT_REST = new Set<ServerState | null>([null, 'stopped', 'failed', 'untrusted']);

/** The counters fed by the supervisor's events and its finished calls. */
export class FleetCounters {
  private readonly restarts: Counter<'server'>;
  private readonly exits: Counter<'server' | 'reason'>;
  private readonly healthFailures: Counter<'server'>;
  private readonly notices: Counter<'server' | 'code'>;
  private readonly calls: Counter<'server' | 'code'>;
  private readonly callSeconds: Histogram<'server'>;
  private readonly resultBytes: Counter<'server'>;

  constructor(registry: Registry, prefix: string, buckets: readonly number[]) {
    const registers = [registry];
    this.restarts = new Counter({
      name: `${prefix}server_restarts_total`,
      help: 'Starts of the server after an exit (a crash, a wedge, a restart asked for), not its first start',
      labelNames: ['server'],
      registers,
    });
    this.exits = new Counter({
      name: `${prefix}server_exits_total`,
      help: 'Exits of the server (or ends of its session) by reason',
      labelNames: ['server', 'reason'],
      registers,
    });
    this.healthFailures = new Counter({
      name: `${prefix}health_check_failures_total`,
      help: 'Health checks (ping, or server/discover) that got no answer in time',
      labelNames: ['server'],
      registers,
    });
    this.notices = new Counter({
      name: `${prefix}notices_total`,
      help: 'Coded notices (QUEUE_FULL, RATE_LIMITED, LISTING_CUT, MESSAGE_CUT, HEALTH_FAILED, ...) by server',
      labelNames: ['server', 'code'],
      registers,
    });
    this.calls = new Counter({
      name: `${prefix}calls_total`,
      help: "Finished tool calls by outcome code (OK or the failure's code); server is empty for an unknown tool",
      labelNames: ['server', 'code'],
      registers,
    });
    this.callSeconds = new Histogram({
      name: `${prefix}call_duration_seconds`,
      help: 'Tool call latency, from the call to its outcome',
      labelNames: ['server'],
      buckets: [...buckets],
      registers,
    });
    this.resultBytes = new Counter({
      name: `${prefix}call_result_bytes_total`,
      help: 'Bytes of successful tool results (text, and binary blocks decoded)',
      labelNames: ['server'],
      registers,
    });
  }

  /** Gives a server its series at 0, so a rate over them exists before the first event. */
  known(server: string): void {
    this.restarts.inc({ server }, 0);
    this.healthFailures.inc({ server }, 0);
    this.resultBytes.inc({ server }, 0);
  }

  event(e: SupervisorEvent): void {
    switch (e.type) {
      case 'state':
        if (e.to === 'spawning' && !AT_REST.has(e.from)) this.restarts.inc({ server: e.server });
        return;
      case 'exit':
        this.exits.inc({ server: e.server, reason: e.reason });
        return;
      case 'notice':
        if (e.code === undefined) return;
        this.notices.inc({ server: e.server ?? '', code: e.code });
        if (e.code === 'HEALTH_FAILED' && e.server !== null) this.healthFailures.inc({ server: e.server });
        return;
    }
  }

  call(r: CallRecord): void {
    const server = r.server ?? '';
    this.calls.inc({ server, code: r.code });
    this.callSeconds.observe({ server }, r.ms / 1000);
    if (r.bytes > 0) this.resultBytes.inc({ server }, r.bytes);
  }
}
