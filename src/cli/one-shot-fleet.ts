import type { SupervisorConfig } from '../config/types.js';
import type { Supervisor } from '../supervisor/supervisor.js';
import type { FleetFlags } from './fleet-options.js';
import { openFleet } from './open-fleet.js';
import { lineReporter } from './output/reporter.js';
import { terminalAsk } from './prompt.js';
import { handleShutdownSignals } from './shutdown.js';

/** A fleet a command starts for one job (`call`, `tools`), and what ends it. */
export interface OneShotFleet {
  sup: Supervisor;
  /** A question still open on the terminal is withdrawn (the deadline passed, or the job is done). */
  signal: AbortSignal;
  /** Whether Ctrl-C (or SIGTERM) ended the job. */
  interrupted(): boolean;
  /** Withdraws open questions, stops the fleet, gives the signals back; safe to call twice. */
  close(): Promise<void>;
}

/**
 * Opens `config` for one job: warnings only on stderr unless `verbose`, trust asked on a terminal (and never
 * elsewhere), and a signal stops the fleet and marks the job interrupted.
 */
export function openOneShot(
  config: SupervisorConfig,
  flags: FleetFlags & { verbose?: boolean },
): OneShotFleet {
  const reporter = lineReporter(flags.logFormat, flags.verbose ? 'info' : 'warn');
  const interactive = Boolean(process.stdin.isTTY && process.stderr.isTTY);
  const abort = new AbortController();
  let interrupted = false;
  const sup = openFleet(config, flags, reporter, {
    ask: interactive
      ? terminalAsk({ onInterrupt: () => process.kill(process.pid, 'SIGINT'), signal: abort.signal })
      : undefined,
  });
  const removeSignals = handleShutdownSignals(() => {
    interrupted = true;
    abort.abort();
    void sup.stop();
  });
  return {
    sup,
    signal: abort.signal,
    interrupted: () => interrupted,
    close: async () => {
      abort.abort();
      await sup.stop();
      removeSignals();
    },
  };
}
