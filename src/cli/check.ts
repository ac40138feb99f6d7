import { readFile } from 'node:fs/promises';
import { relative } from 'node:path';
import { ConfigError } from '../config/config-error.js';
import { launchProblems } from '../config/launch-check.js';
import type { ServerConfig, SupervisorConfig } from '../config/types.js';
import { type ContainmentKind, chooseContainment } from '../process/containment.js';
import { type LocatedProblem, parseLocatedYaml } from '../registry/located-yaml.js';
import { maskArgs, maskHeaders, maskInline } from '../trust/mask.js';
import { displayCommand } from './approval.js';
import { readConfigFile } from './config-file.js';
import { formatDuration } from './durations.js';

/**
 * `check`: validates a config without spawning anything, including that each enabled server's command is found
 * and its cwd is a directory on this machine; prints a summary on success (problems are thrown).
 */
export async function checkCommand(
  configPath: string,
  write: (s: string) => void = (s) => void process.stdout.write(s),
): Promise<number> {
  const config = await readConfigFile(configPath);
  const text = await readFile(configPath, 'utf8');
  const problems = await launchProblems(config, text);
  const containment = containmentHere(config, text);
  if (typeof containment !== 'string') problems.push(containment);
  if (problems.length > 0) throw new ConfigError(problems);
  write(`${summarize(config, containment as ContainmentKind).join('\n')}\n`);
  return 0;
}

/** The mechanism servers would run under on this machine, or the located problem of a forced one it lacks. */
function containmentHere(config: SupervisorConfig, text: string): ContainmentKind | LocatedProblem {
  const setting = config.supervisor.containment ?? 'auto';
  try {
    return chooseContainment(setting);
  } catch (err) {
    const at = parseLocatedYaml(text, config.source).locate(['supervisor', 'containment']);
    return { source: config.source, ...at, path: 'supervisor.containment', message: (err as Error).message };
  }
}

/** The summary lines: the supervisor section, then one block per server (with its containment, when known). */
export function summarize(config: SupervisorConfig, containment?: ContainmentKind): string[] {
  const { strategy, separator, limit } = config.supervisor;
  const lines = [
    `${config.source}: ok, ${config.servers.length} server(s), strategy ${strategy}, separator "${separator}", ` +
      `limit ${limit.maxRestarts} restarts in ${formatDuration(limit.windowMs)}`,
  ];
  const width = Math.max(0, ...config.servers.map((s) => s.id.length));
  for (const s of config.servers) lines.push(...serverLines(s, width, containment));
  return lines;
}

function serverLines(s: ServerConfig, width: number, containment: ContainmentKind | undefined): string[] {
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
  return [
    `  ${s.id.padEnd(width)}  ${displayCommand(s.command, maskArgs(s.argsAsWritten ?? s.args))}${disabled}`,
    `${pad}cwd ${cwd}; ${restart}; ${health}${containment ? `; contained by ${containment}` : ''}`,
  ];
}

/** A url server as people see it: the URL and its headers, secrets masked. */
function remoteLine(remote: NonNullable<ServerConfig['remote']>): string {
  const headers = Object.entries(maskHeaders(remote.headersAsWritten ?? remote.headers));
  const shown = headers.map(([name, value]) => `${name}: ${value}`).join(', ');
  return `${maskInline(remote.url)}${headers.length > 0 ? ` (headers ${shown})` : ''}`;
}
