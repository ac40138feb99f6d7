import type { LocatedProblem } from '../registry/located-yaml.js';
import type { ReloadOutcome } from '../supervisor/reload/reloader.js';
import type { Supervisor } from '../supervisor/supervisor.js';
import { logProblems } from './output/event-log.js';
import type { Reporter } from './output/reporter.js';

/** What re-read the config: a signal, another terminal, or the file watcher. */
export type ReloadTrigger = 'SIGHUP' | 'control' | 'watch';

/** A reload's answer: the supervisor's outcome, or the file's problems (nothing was changed). */
export type FleetReloadAnswer =
  | ReloadOutcome
  | { ok: false; code: 'INVALID_CONFIG'; message: string; problems: LocatedProblem[] };

export type FleetReload = (trigger: ReloadTrigger) => Promise<FleetReloadAnswer>;

/**
 * The reload of `run` and `serve`: `Supervisor.reloadFile` re-reads the config file and applies it. A file that
 * does not load changes nothing: the supervisor's `reload_refused` event is logged, then one `reload_problem` line
 * per located problem, and the refusal is answered. What a reload did is logged by the `reload` event.
 */
export function fleetReload(sup: Supervisor, configPath: string, reporter: Reporter): FleetReload {
  return async (trigger) => {
    reporter.log('info', 'reloading', { trigger, config: configPath });
    // A file gone or unreadable is a problem of its own, located at its start.
    const outcome = await sup.reloadFile(configPath);
    if (!outcome.ok && outcome.code === 'INVALID_CONFIG')
      logProblems(reporter, 'reload_problem', outcome.problems);
    return outcome;
  };
}
