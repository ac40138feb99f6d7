import { ConfigError } from '../config/config-error.js';
import type { SupervisorConfig } from '../config/types.js';
import { formatProblem, type LocatedProblem } from '../registry/located-yaml.js';
import type { ReloadOutcome } from '../supervisor/reload.js';
import type { Supervisor } from '../supervisor/supervisor.js';
import { readConfigFile } from './config-file.js';
import { CliError } from './errors.js';
import type { Reporter } from './reporter.js';

/** What re-read the config: a signal, another terminal, or the file watcher. */
export type ReloadTrigger = 'SIGHUP' | 'control' | 'watch';

/** A reload's answer: the supervisor's outcome, or the file's problems (nothing was changed). */
export type FleetReloadAnswer =
  | ReloadOutcome
  | { ok: false; code: 'INVALID_CONFIG'; message: string; problems: LocatedProblem[] };

export type FleetReload = (trigger: ReloadTrigger) => Promise<FleetReloadAnswer>;

/**
 * The reload of `run` and `serve`: re-reads the config file and hands it to `Supervisor.reload`. A file that does
 * not load changes nothing: its located problems are logged (one `reload_problem` line each, after a
 * `reload_refused` line) and answered. What the reload did is logged by the supervisor's `reload` event.
 */
export function fleetReload(sup: Supervisor, configPath: string, reporter: Reporter): FleetReload {
  return async (trigger) => {
    reporter.log('info', 'reloading', { trigger, config: configPath });
    let config: SupervisorConfig;
    try {
      config = await readConfigFile(configPath);
    } catch (err) {
      const problems = problemsOf(err, configPath);
      if (!problems) throw err;
      reporter.log('error', 'reload refused: the config has problems; nothing changed', {
        event: 'reload_refused',
        trigger,
        problems: problems.length,
      });
      for (const p of problems) {
        reporter.log('error', formatProblem(p), {
          event: 'reload_problem',
          file: p.source,
          line: p.line,
          col: p.col,
          field: p.path || undefined,
        });
      }
      return {
        ok: false,
        code: 'INVALID_CONFIG',
        message: problems.map(formatProblem).join('\n'),
        problems,
      };
    }
    const outcome = await sup.reload(config);
    if (!outcome.ok)
      reporter.log('warn', `reload refused: ${outcome.code}`, { event: 'reload_refused', trigger });
    return outcome;
  };
}

/** The located problems of a config that does not load (a file gone or unreadable is one, at its start). */
function problemsOf(err: unknown, path: string): LocatedProblem[] | undefined {
  if (err instanceof ConfigError) return err.problems;
  if (err instanceof CliError) return [{ source: path, line: 1, col: 1, path: '', message: err.message }];
  return undefined;
}
