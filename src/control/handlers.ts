import { containerUsage } from '../container/container-stats.js';
import { treeUsage } from '../process/tree-usage.js';
import type { ServerLogs } from '../supervisor/observe/server-logs.js';
import type { Supervisor } from '../supervisor/supervisor.js';
import type { ControlOutcome } from '../supervisor/types.js';
import type { ControlHandler } from './control-server.js';
import {
  answerError,
  answerOk,
  type ControlAnswer,
  type ControlRequest,
  type InstanceInfo,
} from './protocol.js';

/** What the default handlers act on. */
export interface ControlTarget {
  supervisor: Pick<Supervisor, 'status' | 'restart' | 'stopServer' | 'startServer' | 'config'>;
  logs: ServerLogs;
  info: InstanceInfo;
}

/**
 * `hello`, `status`, `restart`, `stop`, `start`, `logs` and `reload` (answered `NOT_SUPPORTED` unless the host
 * gives its own, `reload-handler.ts`: only the host knows where its config comes from): each a thin call on the
 * Supervisor's API, its outcome passed on as data.
 */
export function controlHandlers(target: ControlTarget): Record<string, ControlHandler> {
  const sup = target.supervisor;
  const ids = () => sup.config.servers.map((s) => s.id);
  const perServer =
    (act: (id: string) => ControlOutcome): ControlHandler =>
    (req) => {
      const id = serverOf(req);
      if (typeof id !== 'string') return id;
      const outcome = act(id);
      return outcome.ok
        ? answerOk({ server: id })
        : answerError(outcome.code, outcome.code === 'UNKNOWN_SERVER' ? { servers: ids() } : {});
    };
  return {
    hello: () => answerOk(target.info),
    status: async () => {
      const rows = sup.status();
      const servers = await Promise.all(
        rows.map(async (row) => {
          const usage = row.container
            ? await containerUsage(row.container.engine, row.container.id)
            : row.pid !== undefined
              ? treeUsage(row.pid)
              : undefined;
          return usage ? { ...row, usage } : row;
        }),
      );
      return answerOk({ instance: target.info, now: Date.now(), servers });
    },
    restart: perServer((id) => sup.restart(id)),
    stop: perServer((id) => sup.stopServer(id)),
    start: perServer((id) => sup.startServer(id)),
    logs: (req) => {
      const id = serverOf(req);
      if (typeof id !== 'string') return id;
      if (!ids().includes(id)) return answerError('UNKNOWN_SERVER', { servers: ids() });
      const answer = answerOk({ server: id, entries: target.logs.entries(id) });
      if (!req.follow) return answer;
      return { answer, follow: (send) => target.logs.follow(id, send) };
    },
    reload: () => answerError('NOT_SUPPORTED', { detail: 'reload' }),
  };
}

function serverOf(req: ControlRequest): string | ControlAnswer {
  return req.server ?? answerError('BAD_REQUEST', { detail: `${req.cmd} needs a server` });
}
