import { resolve } from 'node:path';
import { ControlSocketError } from '../../control/control-server.js';
import { openControl } from '../../control/open-control.js';
import type { InstanceUrl } from '../../control/protocol.js';
import { reloadHandler } from '../../control/reload-handler.js';
import { StateDirUnsafeError } from '../../process/state-dir-safety.js';
import type { ServerLogs } from '../../supervisor/observe/server-logs.js';
import type { Supervisor } from '../../supervisor/supervisor.js';
import { CliError } from '../errors.js';
import type { FleetFlags } from '../fleet-options.js';
import type { FleetReload } from '../fleet-reload.js';
import type { Reporter } from '../output/reporter.js';
import { stateDirPath } from '../store-path.js';

/**
 * Closes the control socket; carries the log ring it keeps (for the inspector page to show tails from) and
 * `publish`, which tells `status` an address the instance serves on.
 */
export type CloseControl = (() => Promise<void>) & {
  logs?: ServerLogs;
  publish: (name: InstanceUrl, url: string) => void;
};

/**
 * Opens the control socket of `run` and `serve` in the state directory; resolves its close function. A socket
 * that cannot be opened is a warning, not a failure: the fleet runs, only without control from other terminals.
 * A state directory another user can write is a failure (`state_dir_unsafe`).
 */
export async function openFleetControl(
  sup: Supervisor,
  configPath: string,
  flags: FleetFlags,
  reporter: Reporter,
  command: string,
  reload?: FleetReload,
): Promise<CloseControl> {
  const warn = (message: string) => reporter.log('warn', message);
  try {
    const control = await openControl(sup, {
      dir: stateDirPath(flags.stateDir),
      config: resolve(configPath),
      command,
      warn,
      ...(reload ? { handlers: { reload: reloadHandler(() => reload('control')) } } : {}),
    });
    reporter.log('info', 'control socket open', { socket: control.path });
    return Object.assign(() => control.close(), { logs: control.logs, publish: control.publish });
  } catch (err) {
    if (err instanceof StateDirUnsafeError) throw new CliError('state_dir_unsafe', err.message);
    if (!(err instanceof ControlSocketError)) throw err;
    warn(`${err.message}; status, restart and logs from another terminal are unavailable`);
    return Object.assign(async () => {}, { publish: () => {} });
  }
}
