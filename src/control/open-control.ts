import type { ServerLogsConfig } from '../config/types.js';
import { refuseUnsafeStateDir } from '../process/state-dir-safety.js';
import { ServerLogs } from '../supervisor/observe/server-logs.js';
import type { Supervisor } from '../supervisor/supervisor.js';
import { type ControlHandler, type ControlServer, openControlServer } from './control-server.js';
import { controlHandlers } from './handlers.js';
import type { InstanceInfo, InstanceUrl } from './protocol.js';

export interface OpenControlOptions {
  /** The state directory: the socket goes here, and the log files under `logs/` when the config asks for them. */
  dir: string;
  /** The config file's absolute path and the command, for clients choosing among instances. */
  config: string;
  command: string;
  /** Handlers added to (or replacing) the defaults, e.g. `reload`. */
  handlers?: Readonly<Record<string, ControlHandler>>;
  warn?: (message: string) => void;
}

export interface Control extends ControlServer {
  /** Each server's kept stderr lines and log messages. */
  readonly logs: ServerLogs;
  /** Tells `status` an address the instance now serves on (the inspector's, with its token). */
  publish(name: InstanceUrl, url: string): void;
}

/**
 * Opens a supervisor to other terminals: keeps each server's logs (the config's `supervisor.logs`) and listens on
 * a control socket in the state directory. Open it before `start()` so the first lines are kept. A state
 * directory another user can write is refused (StateDirUnsafeError) before anything is written there.
 */
export async function openControl(sup: Supervisor, opts: OpenControlOptions): Promise<Control> {
  refuseUnsafeStateDir(opts.dir);
  const logsConfig: ServerLogsConfig = sup.config.supervisor.logs ?? { ring: 1024 * 1024 };
  const logs = new ServerLogs(sup, logsConfig, opts.dir, opts.warn);
  const info: InstanceInfo = {
    pid: process.pid,
    config: opts.config,
    command: opts.command,
    startedAt: Date.now(),
  };
  let server: ControlServer;
  try {
    server = await openControlServer({
      dir: opts.dir,
      handlers: { ...controlHandlers({ supervisor: sup, logs, info }), ...opts.handlers },
    });
  } catch (err) {
    logs.close();
    throw err;
  }
  return {
    path: server.path,
    logs,
    publish: (name, url) => {
      info.urls = { ...info.urls, [name]: url };
    },
    close: async () => {
      await server.close();
      logs.close();
    },
  };
}
