import { parseDuration } from '../config/units.js';
import { callFailure, outcomeText } from '../protocol/call-outcome.js';
import { exposedNameFor } from '../registry/exposed-name.js';
import { toolOwner } from '../registry/tool-owner.js';
import { closestNames, didYouMean } from './closest-names.js';
import { checkServerIds, readConfigFile } from './config-file.js';
import { EXIT_FAILURE, EXIT_INTERRUPTED, usageError } from './errors.js';
import type { FleetFlags } from './fleet-options.js';
import { openOneShot } from './one-shot-fleet.js';

export interface CallFlags extends FleetFlags {
  timeout?: string;
  verbose?: boolean;
  /** The caller's scopes (`--scopes a,b`); none by default, so a tool that requires scopes is refused. */
  scopes?: string[];
}

/**
 * `call`: starts the one server that owns the tool, makes one call, prints the flattened result on stdout and
 * stops it. `--timeout` is one deadline for the whole command, the server's start included. Exit 0, or 1 when
 * the call failed (printed as `ERROR: …`); logs on stderr are warnings only unless `--verbose`.
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
  const owner = toolOwner(config, tool);
  if (owner === undefined) {
    const ids = config.servers.map((s) => s.id).join(', ');
    const failure = callFailure('UNKNOWN_TOOL', `unknown tool '${tool}': no server owns it`, { tool });
    process.stdout.write(`${outcomeText(failure)}\n`);
    const hint = didYouMean(closestNames(tool, ownableNames(config, tool)));
    if (hint) process.stderr.write(`${hint}\n`);
    process.stderr.write(
      `a tool is named <server>${config.supervisor.separator}<tool>; servers: ${ids || '(none)'}\n`,
    );
    return EXIT_FAILURE;
  }
  // The other servers are not started: their launch costs time, and may ask a person for nothing.
  const fleet = { ...config, servers: config.servers.filter((s) => s.id === owner) };
  const job = openOneShot(fleet, flags);
  const { sup } = job;
  try {
    const starting = sup.start();
    // With a deadline the call itself waits for the server to become ready, within that same deadline; without
    // one, the startup budget and the restart limit bound the start.
    if (timeoutMs === undefined) await starting;
    const outcome = await sup.callToolOutcome(tool, args, {
      signal: job.signal,
      scopes: flags.scopes ?? [],
      ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    });
    const result = outcomeText(outcome);
    process.stdout.write(result.endsWith('\n') ? result : `${result}\n`);
    if (!outcome.ok && outcome.code === 'UNKNOWN_TOOL') {
      const names = sup.listTools().map((t) => t.name);
      const hint = didYouMean(closestNames(tool, names));
      if (hint) process.stderr.write(`${hint}\n`);
      process.stderr.write(`available tools: ${names.length ? names.join(', ') : '(none)'}\n`);
    }
    await sup.stop();
    if (job.interrupted()) return EXIT_INTERRUPTED;
    return outcome.ok ? 0 : EXIT_FAILURE;
  } finally {
    // A question still open on the terminal (the deadline passed while it waited) is withdrawn.
    await job.close();
  }
}

/**
 * Names a mistyped tool may have meant, known before anything starts: the tools the config declares, and the
 * name with its server part put on each server id (`fz.echo` → `fx.echo`), of which the nearest will be kept.
 */
function ownableNames(config: Awaited<ReturnType<typeof readConfigFile>>, tool: string): string[] {
  const sep = config.supervisor.separator;
  const names: string[] = [];
  for (const s of config.servers) {
    for (const t of s.tools) {
      try {
        names.push(exposedNameFor(s.id, t.name, sep, s.namespace !== false));
      } catch {
        // Passed over, as toolOwner passes over a name that cannot be exposed.
      }
    }
  }
  const at = tool.indexOf(sep);
  if (at > 0) for (const s of config.servers) names.push(`${s.id}${tool.slice(at)}`);
  return names;
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
