import type { ServerStatus } from '../../supervisor/types.js';

/** What `GET /healthz` answers: only ids and states, since it asks for no credentials. */
export interface HealthReport {
  status: 'ok' | 'stopping';
  servers: Array<{ id: string; state: string; since: number; restarts: number }>;
}

/**
 * 200 while the supervisor runs, through a drain too (a liveness probe failing then would kill an instance that is
 * finishing its work), and 503 once the drain is done and the fleet stops.
 */
export function healthReport(
  rows: readonly ServerStatus[],
  stopping: boolean,
): { httpStatus: 200 | 503; body: HealthReport } {
  const servers = rows.map((r) => ({ id: r.id, state: r.state, since: r.since, restarts: r.restarts }));
  return stopping
    ? { httpStatus: 503, body: { status: 'stopping', servers } }
    : { httpStatus: 200, body: { status: 'ok', servers } };
}

/** What `GET /readyz` answers: whether new clients should be sent here. */
export interface ReadyReport {
  status: 'starting' | 'ready' | 'draining';
}

/**
 * 200 while work is taken: once the fleet's first start settled (a call sent sooner could find its tool not yet
 * listed), until a drain begins — 503 before and after, so a load balancer sends work only where it can be done.
 */
export function readyReport(taking: boolean, up: boolean): { httpStatus: 200 | 503; body: ReadyReport } {
  if (!taking) return { httpStatus: 503, body: { status: 'draining' } };
  return up
    ? { httpStatus: 200, body: { status: 'ready' } }
    : { httpStatus: 503, body: { status: 'starting' } };
}
