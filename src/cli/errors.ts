/** Exit code of a wrong command line (unknown flag, bad value, missing file). */
export const EXIT_USAGE = 2;
/** Exit code of a failure (bad config, `ERROR:` result, a fleet that could not run). */
export const EXIT_FAILURE = 1;
/** Exit code after a second Ctrl-C forced an immediate reap. */
export const EXIT_INTERRUPTED = 130;

export type CliErrorCode =
  | 'usage'
  | 'config_unreadable'
  | 'bad_json_args'
  | 'unknown_server'
  | 'stately_missing'
  | 'ui_failed'
  | 'trust_store'
  | 'escalated'
  | 'containment_unavailable'
  | 'state_dir_unsafe'
  | 'no_tokens'
  | 'secret_unavailable'
  | 'keyring_missing'
  | 'empty_value'
  | 'value_too_large'
  | 'interrupted'
  | 'listen_failed'
  | 'not_running'
  | 'several_running'
  | 'control_failed'
  | 'control_refused'
  | 'file_exists'
  | 'write_failed';

/** An error the program reports as one line on stderr and turns into its exit code; never a stack trace. */
export class CliError extends Error {
  override readonly name = 'CliError';

  constructor(
    readonly code: CliErrorCode,
    message: string,
    readonly exitCode: number = EXIT_FAILURE,
  ) {
    super(message);
  }
}

/** A usage error: the command line is wrong, exit 2. */
export function usageError(message: string, code: CliErrorCode = 'usage'): CliError {
  return new CliError(code, message, EXIT_USAGE);
}
