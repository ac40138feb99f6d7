import { readFile } from 'node:fs/promises';
import { dirname, relative, resolve } from 'node:path';
import { ConfigError } from '../config/config-error.js';
import { launchProblems } from '../config/launch-check.js';
import { type ConfigReading, readConfig } from '../config/parse-config.js';
import { sortProblems } from '../config/problem-sink.js';
import type { ServerConfig, SupervisorConfig } from '../config/types.js';
import { type ContainmentKind, chooseContainment } from '../process/containment.js';
import { formatProblem, type LocatedProblem } from '../registry/located-yaml.js';
import { maskArgs, maskHeaders, maskInline } from '../trust/mask.js';
import { displayCommand } from './approval.js';
import { assertConfigPath } from './config-file.js';
import { containerFindings, containerLine } from './container-check.js';
import { formatDuration } from './durations.js';
import { usageError } from './errors.js';
import { secretFindings } from './secret-check.js';

/** Flags of `check`. */
export interface CheckFlags {
  /** Print the outcome as one JSON document on stdout (problems included) instead of text. */
  json?: boolean;
}

/**
 * `check`: validates a config without spawning anything, including that each enabled server's command is found
 * and runnable and its cwd is a directory on this machine, and that each container server's engine answers and
 * holds its image (the one network request it makes, each bounded). Every problem is reported at once: the
 * file's own, its manifests', and the launches of the servers that are valid as written.
 * Prints a summary on success; problems are thrown (exit 1), or printed as data with `--json`.
 */
export async function checkCommand(
  configPath: string,
  flags: CheckFlags = {},
  write: (s: string) => void = (s) => void process.stdout.write(s),
): Promise<number> {
  assertConfigPath(configPath);
  let text: string;
  try {
    text = await readFile(configPath, 'utf8');
  } catch (err) {
    throw usageError(`cannot read config '${configPath}': ${(err as Error).message}`, 'config_unreadable');
  }
  const reading = readConfig(text, { source: configPath, baseDir: dirname(resolve(configPath)) });
  const containment = reading.config ? containmentHere(reading.config, reading) : undefined;
  const engines = await containerFindings(reading);
  const secrets = await secretFindings(reading, text, dirname(resolve(configPath)));
  const found = [...reading.problems, ...launchProblems(reading), ...engines.problems, ...secrets];
  if (containment !== undefined && typeof containment !== 'string') found.push(containment);
  const problems = sortProblems(found, configPath);
  const config = reading.config;
  if (flags.json) {
    write(`${JSON.stringify(checkData(configPath, problems, config, containment, engines.imageIds))}\n`);
    return problems.length > 0 ? 1 : 0;
  }
  if (problems.length > 0 || !config) throw new ConfigError(problems);
  write(`${summarize(config, containment as ContainmentKind, engines.imageIds).join('\n')}\n`);
  return 0;
}

/** `check --json`: the outcome as data, every problem with its code (`INVALID` for a value the schema refuses). */
function checkData(
  source: string,
  problems: readonly LocatedProblem[],
  config: SupervisorConfig | undefined,
  containment: ContainmentKind | LocatedProblem | undefined,
  imageIds: ReadonlyMap<string, string>,
) {
  const ok = problems.length === 0;
  return {
    ok,
    source,
    problems: problems.map((p) => ({ ...p, code: p.code ?? 'INVALID' })),
    ...(ok && config
      ? {
          containment,
          servers: config.servers.map((s) => ({
            id: s.id,
            disabled: s.disabled,
            remote: !!s.remote,
            ...(s.container ? { container: containerData(s, imageIds.get(s.id)) } : {}),
          })),
          ...(config.serve?.authProblems ? { serveHttpProblems: config.serve.authProblems } : {}),
        }
      : {}),
  };
}

/** A container server in `check --json`: what runs it, and the image id the engine has for its image. */
function containerData(s: ServerConfig, imageId: string | undefined) {
  const { image, engine, pull } = s.container!;
  return { image, engine, pull, ...(imageId ? { imageId } : {}) };
}

/** The mechanism servers would run under on this machine, or the located problem of a forced one it lacks. */
function containmentHere(
  config: SupervisorConfig,
  reading: Pick<ConfigReading, 'locate'>,
): ContainmentKind | LocatedProblem {
  const setting = config.supervisor.containment ?? 'auto';
  try {
    return chooseContainment(setting);
  } catch (err) {
    const at = reading.locate(['supervisor', 'containment']);
    return {
      source: config.source,
      ...at,
      path: 'supervisor.containment',
      message: (err as Error).message,
      code: 'CONTAINMENT',
    };
  }
}

/**
 * The summary lines: the supervisor section, then one block per server (with its containment, when known, and
 * a container server's image id, when the engine was asked).
 */
export function summarize(
  config: SupervisorConfig,
  containment?: ContainmentKind,
  imageIds: ReadonlyMap<string, string> = new Map(),
): string[] {
  const { strategy, separator, limit } = config.supervisor;
  const lines = [
    `${config.source}: ok, ${config.servers.length} server(s), strategy ${strategy}, separator "${separator}", ` +
      `limit ${limit.maxRestarts} restarts in ${formatDuration(limit.windowMs)}`,
  ];
  const width = Math.max(0, ...config.servers.map((s) => s.id.length));
  for (const s of config.servers) lines.push(...serverLines(s, width, containment, imageIds.get(s.id)));
  for (const p of config.serve?.authProblems ?? [])
    lines.push(`only serve --http reads serve.auth, and it would stop at: ${formatProblem(p)}`);
  return lines;
}

function serverLines(
  s: ServerConfig,
  width: number,
  containment: ContainmentKind | undefined,
  imageId: string | undefined,
): string[] {
  const pad = ' '.repeat(width + 4);
  const { policy, backoff, limit } = s.restart;
  const cwd = relative(process.cwd(), s.cwd) || '.';
  const restart =
    policy === 'never'
      ? 'restart never'
      : `restart ${policy}, backoff ${formatDuration(backoff.initialMs)} x${backoff.multiplier} up to ` +
        `${formatDuration(backoff.maxMs)}, limit ${limit.maxRestarts} in ${formatDuration(limit.windowMs)}`;
  const health =
    s.health.intervalMs > 0 ? `ping every ${formatDuration(s.health.intervalMs)}` : 'no health pings';
  const disabled = s.disabled ? '  (disabled)' : '';
  if (s.remote) {
    return [
      `  ${s.id.padEnd(width)}  ${remoteLine(s.remote)}${disabled}`,
      `${pad}${restart}; ${health}; remote (reconnected, not spawned)`,
    ];
  }
  const args = maskArgs(s.argsAsWritten ?? s.args);
  if (s.container) {
    const command =
      s.command === ''
        ? `(the image's command)${args.length > 0 ? ` ${displayCommand(args[0]!, args.slice(1))}` : ''}`
        : displayCommand(s.command, args);
    return [
      `  ${s.id.padEnd(width)}  ${command}${disabled}`,
      `${pad}${containerLine(s, imageId)}`,
      `${pad}${restart}; ${health}`,
    ];
  }
  return [
    `  ${s.id.padEnd(width)}  ${displayCommand(s.command, args)}${disabled}`,
    `${pad}cwd ${cwd}; ${restart}; ${health}${containment ? `; contained by ${containment}` : ''}`,
  ];
}

/** A url server as people see it: the URL and its headers, secrets masked. */
function remoteLine(remote: NonNullable<ServerConfig['remote']>): string {
  const headers = Object.entries(maskHeaders(remote.headersAsWritten ?? remote.headers));
  const shown = headers.map(([name, value]) => `${name}: ${value}`).join(', ');
  return `${maskInline(remote.url)}${headers.length > 0 ? ` (headers ${shown})` : ''}`;
}
