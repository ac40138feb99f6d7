import type { FleetPhase } from '../inspector/page-data.js';
import { toStatechart } from '../inspector/statechart.js';
import { startUiServer, type UiServer } from '../inspector/ui-server.js';
import { serverMachine } from '../machines/server.machine.js';
import type { Supervisor } from '../supervisor/supervisor.js';
import type { CloseControl } from './control/open.js';
import { CliError } from './errors.js';
import type { Reporter } from './output/reporter.js';

/**
 * The live inspector of `run` and `serve` (`--ui [port]`): started on 127.0.0.1, its address (with the token it
 * needs) announced whole and published to `status`. The page shows the calls clients make through `serve` as
 * the ones a host makes: both go through the fleet's one call pipeline.
 */
export async function openInspector(
  sup: Supervisor,
  flag: true | number,
  phase: () => FleetPhase,
  control: CloseControl,
  reporter: Reporter,
): Promise<UiServer> {
  let ui: UiServer;
  try {
    ui = await startUiServer(
      {
        status: () => sup.status(),
        subscribe: (l) => sup.subscribe(l),
        listTools: () => sup.listTools(),
        onCall: (l) => sup.onCall(l),
        onStderr: (l) => sup.onStderr(l),
        phase,
        // The control socket's ring when it opened: the page shows the same tails as `logs`.
        ...(control.logs ? { logs: control.logs } : {}),
        statechart: toStatechart(serverMachine),
      },
      { port: flag === true ? 0 : flag },
    );
  } catch (err) {
    throw new CliError(
      'ui_failed',
      `cannot start the UI: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  reporter.announce(`inspector UI at ${ui.url}`, { url: ui.url });
  control.publish('ui', ui.url);
  return ui;
}
