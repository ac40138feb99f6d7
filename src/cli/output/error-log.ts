import { ConfigError } from '../../config/config-error.js';
import { CliError, EXIT_FAILURE } from '../errors.js';
import { EventLog, logProblems } from './event-log.js';

/**
 * The program's last words under `--log-format json`: a config's problems one `config_problem` record each (file,
 * line, col, field), any other failure one `error` record with its code; resolves the exit code.
 */
export function logError(err: unknown, log = new EventLog('json')): number {
  if (err instanceof ConfigError) {
    logProblems(log, 'config_problem', err.problems);
    return EXIT_FAILURE;
  }
  if (err instanceof CliError) {
    log.log('error', err.message, { event: 'error', code: err.code });
    return err.exitCode;
  }
  const message = err instanceof Error ? err.message : String(err);
  log.log('error', `internal error: ${message.replace(/\s*\n\s*/g, ' ')}`, {
    event: 'error',
    code: 'internal',
  });
  return EXIT_FAILURE;
}
