import { parseDuration } from '../supervisor/config/units.js';
import { checkServerIds, readConfigFile } from './config-file.js';
import { EXIT_FAILURE, EXIT_INTERRUPTED, usageError } from './errors.js';
import type { FleetFlags } from './fleet-options.js';
import { openFleet } from './open-fleet.js';
import { terminalAsk } from './prompt.js';
import { lineReporter } from './reporter.js';
import { handleShutdownSignals } from './shutdown.js';

export interface CallFlags extends FleetFlags {
  timeout?: string;
  verbose?: boolean;
}

/**
 * `call`: starts the fleet, makes one call, prints the flattened result on stdout and stops the fleet.
 * Exit 0, or 1 when the result is an `ERROR:`; logs on stderr are warnings only unless `--verbose`.
 */
export async function callCommand(
  configPath: string,
  tool: string,
  jsonArgs: string | undefined,
  flags: CallFlags,
): Promise<number> {
  const args = parseArgs(jsonArgs);
  const timeoutMs = flags.timeout === undefined ? undefined : parseTimeout(flags.timeout);
  const config = await readConfigFile(configPath);
  checkServerIds(config, flags.trust, '--trust');
  const reporter = lineReporter(flags.logFormat, flags.verbose ? 'info' : 'warn');
  const interactive = Boolean(process.stdin.isTTY && process.stderr.isTTY);
  let interrupted = false;
  const abort = new AbortController();
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
  try {
    await sup.start();
    const result = await sup.callTool(tool, args, {
      signal: abort.signal,
      ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    });
    process.stdout.write(result.endsWith('\n') ? result : `${result}\n`);
    if (result.startsWith('ERROR: unknown tool')) {
      const names = sup.listTools().map((t) => t.name);
      process.stderr.write(`available tools: ${names.length ? names.join(', ') : '(none)'}\n`);
    }
    await sup.stop();
    if (interrupted) return EXIT_INTERRUPTED;
    return result.startsWith('ERROR:') ? EXIT_FAILURE : 0;
  } finally {
    await sup.stop();
    removeSignals();
  }
}

/** The `json-args` argument: a JSON object, or nothing. */
export function parseArgs(text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw usageError(`json-args is not valid JSON: ${why}`, 'bad_json_args');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw usageError('json-args must be a JSON object, like \'{"text":"hi"}\'', 'bad_json_args');
  }
  return value as Record<string, unknown>;
}

function parseTimeout(text: string): number {
  const parsed = parseDuration(text);
  if (!parsed.ok || parsed.value <= 0)
    throw usageError(`--timeout expects a positive duration (5000, 5s, 1m), got '${text}'`);
  return parsed.value;
}
