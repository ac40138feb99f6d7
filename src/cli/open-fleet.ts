import type { SupervisorConfig } from '../config/types.js';
import { ContainmentUnavailableError } from '../process/containment.js';
import { StateDirUnsafeError } from '../process/state-dir-safety.js';
import { createSupervisor, type Supervisor, type SupervisorOptions } from '../supervisor/supervisor.js';
import { type AskFn, createApprove } from './approval.js';
import { CliError } from './errors.js';
import type { FleetFlags } from './fleet-options.js';
import type { Reporter } from './output/reporter.js';
import { stateDirPath, trustStorePath } from './store-path.js';

export interface OpenFleetOptions {
  /** Asks a person about untrusted servers; absent (no terminal, or stdin is the protocol) means refuse. */
  ask?: AskFn | undefined;
  inspect?: SupervisorOptions['inspect'];
  /** `serve`: its 2026 clients answer a task's questions by polling (the tasks extension). */
  declareTaskQuestions?: boolean;
  /** `serve --http` with a session key: task ids that tell a sibling replica's from none. */
  taskIds?: SupervisorOptions['taskIds'];
}

/**
 * The supervisor of `run`, `serve` and `call`: approvals from `--trust`/`--trust-all` (then `ask`), the trust
 * store and state directory the flags name, and every log line and event through the reporter.
 */
export function openFleet(
  config: SupervisorConfig,
  flags: FleetFlags,
  reporter: Reporter,
  opts: OpenFleetOptions = {},
): Supervisor {
  const approve = createApprove({
    trustAll: Boolean(flags.trustAll),
    trustIds: flags.trust,
    ask: opts.ask,
    onRefuse: (request, hint) => reporter.log('warn', hint, { server: request.server }),
  });
  let sup: Supervisor;
  try {
    sup = createSupervisor(config, {
      approve,
      trustStore: trustStorePath(flags.store),
      stateDir: stateDirPath(flags.stateDir),
      logger: reporter.logger(),
      ...(opts.inspect ? { inspect: opts.inspect } : {}),
      ...(opts.declareTaskQuestions ? { declareTaskQuestions: true } : {}),
      ...(opts.taskIds ? { taskIds: opts.taskIds } : {}),
    });
  } catch (err) {
    // A config that forces a containment this machine lacks (one line, as `check` reports it at its key), or a
    // state directory another user can write: refused, never run around.
    if (err instanceof ContainmentUnavailableError)
      throw new CliError('containment_unavailable', err.message);
    if (err instanceof StateDirUnsafeError) throw new CliError('state_dir_unsafe', err.message);
    throw err;
  }
  sup.subscribe((e) => reporter.event(e));
  return sup;
}
