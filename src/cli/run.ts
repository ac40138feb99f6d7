import type { HttpAddress } from '../gateway/http/address.js';
import type { UiServer } from '../inspector/ui-server.js';
import { supervisorMetrics } from '../metrics/supervisor-metrics.js';
import type { Supervisor } from '../supervisor/supervisor.js';
import { checkServerIds, readConfigFile } from './config-file.js';
import { watchConfigFiles } from './config-watch.js';
import { type CloseControl, openFleetControl } from './control/open.js';
import { EXIT_FAILURE } from './errors.js';
import type { FleetFlags } from './fleet-options.js';
import { type FleetReload, fleetReload } from './fleet-reload.js';
import { openInspector } from './inspector-ui.js';
import { type MetricsServer, startMetricsServer } from './metrics-http.js';
import { openFleet } from './open-fleet.js';
import { lineReporter, type Reporter, tableReporter } from './output/reporter.js';
import { terminalAsk } from './prompt.js';
import { handleShutdownSignals, holdOpen } from './shutdown.js';
import { type StatelyHook, startStately } from './stately.js';

export interface RunFlags extends FleetFlags {
  /** `--ui [port]`: true without a port (a free one is picked). */
  ui?: true | number;
  /** `--stately [port]`: true without a port (8080, the inspector's default). */
  stately?: true | number;
  /** `--watch`: reload when the config file or one of its manifests changes. */
  watch?: boolean;
  /** `--metrics HOST:PORT`: Prometheus metrics at `/metrics`; `--metrics-public` allows a non-loopback host. */
  metrics?: HttpAddress;
  metricsPublic?: boolean;
}

/**
 * `run`: the fleet in the foreground until a signal. A live table on a terminal, structured lines on stderr
 * otherwise; resolves the exit code once everything is stopped.
 */
export async function runCommand(configPath: string, flags: RunFlags): Promise<number> {
  const config = await readConfigFile(configPath);
  checkServerIds(config, flags.trust, '--trust');
  const tty = Boolean(process.stderr.isTTY);
  const interactive = tty && Boolean(process.stdin.isTTY);
  let sup: Supervisor | undefined;
  const reporter: Reporter = tty
    ? tableReporter(process.stderr, () => sup?.status() ?? [])
    : lineReporter(flags.logFormat);
  let stately: StatelyHook | undefined;
  let ui: UiServer | undefined;
  let metrics: MetricsServer | undefined;
  let closeControl: CloseControl | undefined;
  let reload: FleetReload | undefined;
  let unwatch: (() => void) | undefined;
  let finish: (code: number) => void = () => {};
  const done = new Promise<number>((resolve) => {
    finish = resolve;
  });
  let stopping: Promise<void> | undefined;
  let stopped = false;
  const prompts = new AbortController();
  const release = holdOpen();
  const shutdown = (code: number) => {
    prompts.abort();
    stopping ??= (async () => {
      // A fleet that was refused before it existed has nothing to stop: its refusal stays the only line.
      const fleetMade = sup !== undefined;
      if (fleetMade) reporter.log('info', 'stopping');
      unwatch?.();
      await sup?.stop();
      stopped = true;
      await closeControl?.();
      await ui?.close();
      await metrics?.close();
      stately?.stop();
      if (fleetMade) reporter.log('info', 'stopped');
      reporter.stop();
      release();
      finish(code);
    })();
  };
  // SIGHUP re-reads the config; before the fleet is up there is nothing to reload yet.
  const removeSignals = handleShutdownSignals(
    () => shutdown(0),
    () => void reload?.('SIGHUP'),
  );
  try {
    if (flags.stately !== undefined) {
      stately = await startStately(flags.stately === true ? 8080 : flags.stately);
      reporter.announce(`stately inspector: ${stately.url}`, { url: stately.url });
    }
    const fleet = openFleet(config, flags, reporter, {
      ask: interactive
        ? terminalAsk({
            before: reporter.suspend,
            after: reporter.resume,
            // Through the signal handler, so that a second Ctrl-C kills at once as it does everywhere else.
            onInterrupt: () => process.kill(process.pid, 'SIGINT'),
            signal: prompts.signal,
          })
        : undefined,
      ...(stately ? { inspect: stately.inspect } : {}),
    });
    sup = fleet;
    fleet.subscribe((e) => {
      if (e.type === 'escalated') shutdown(EXIT_FAILURE);
    });
    if (flags.metrics) {
      metrics = await startMetricsServer(supervisorMetrics(fleet), flags.metrics, {
        public: flags.metricsPublic,
        allowedHosts: config.serve?.allowedHosts,
        onWarn: (m) => reporter.log('warn', m),
      });
      reporter.announce(`metrics at ${metrics.url}`, { url: metrics.url });
    }
    const reloadFleet = fleetReload(fleet, configPath, reporter);
    closeControl = await openFleetControl(fleet, configPath, flags, reporter, 'run', reloadFleet);
    if (flags.ui !== undefined) {
      const phase = () => (stopped ? 'stopped' : stopping ? 'stopping' : 'running');
      ui = await openInspector(fleet, flags.ui, phase, closeControl, reporter);
    }
    if (metrics) closeControl.publish('metrics', metrics.url);
    reporter.header([
      `mcp-supervisor run ${config.source}: ${config.servers.length} server(s)${ui ? `, UI ${ui.url}` : ''} (Ctrl-C to stop)`,
    ]);
    reporter.log('info', 'starting', { config: config.source, servers: config.servers.length });
    if (!stopping) await fleet.start();
    if (!stopping) reporter.log('info', 'started');
    if (!stopping) reload = reloadFleet;
    if (!stopping && flags.watch) {
      unwatch = watchConfigFiles(
        configPath,
        () => fleet.config,
        () => reloadFleet('watch'),
        {
          warn: (m) => reporter.log('warn', m),
        },
      );
      reporter.log('info', 'watching the config for changes', { config: configPath });
    }
    return await done;
  } catch (err) {
    shutdown(EXIT_FAILURE);
    await done;
    throw err;
  } finally {
    removeSignals();
  }
}
