import type { ServerStatus } from '../../supervisor/types.js';

/** What `GET /healthz` answers: only ids and states, since it asks for no credentials. */
export interface HealthReport {
  status: 'ok' | 'stopping';
  servers: Array<{ id: string; state: string; since: number; restarts: number }>;
}

/** 200 while the supervisor runs, 503 once it is stopping (a load balancer then sends no new clients). */
export function healthReport(
  rows: readonly ServerStatus[],
  stopping: boolean,
): { httpStatus: 200 | 503; body: HealthReport } {
  const servers = rows.map((r) => ({ id: r.id, state: r.state, since: r.since, restarts: r.restarts }));
  return stopping
    ? { httpStatus: 503, body: { status: 'stopping', servers } }
    : { httpStatus: 200, body: { status: 'ok', servers } };
}
