import { readFile } from 'node:fs/promises';
import { relative } from 'node:path';
import { ConfigError } from '../supervisor/config/config-error.js';
import { launchProblems } from '../supervisor/config/launch-check.js';
import type { ServerConfig, SupervisorConfig } from '../supervisor/config/types.js';
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
  const problems = await launchProblems(config, await readFile(configPath, 'utf8'));
  if (problems.length > 0) throw new ConfigError(problems);
  write(`${summarize(config).join('\n')}\n`);
  return 0;
}

/** The summary lines: the supervisor section, then one block per server. */
export function summarize(config: SupervisorConfig): string[] {
  const { strategy, separator, limit } = config.supervisor;
  const lines = [
    `${config.source}: ok, ${config.servers.length} server(s), strategy ${strategy}, separator "${separator}", ` +
      `limit ${limit.maxRestarts} restarts in ${formatDuration(limit.windowMs)}`,
  ];
  const width = Math.max(0, ...config.servers.map((s) => s.id.length));
  for (const s of config.servers) lines.push(...serverLines(s, width));
  return lines;
}

function serverLines(s: ServerConfig, width: number): string[] {
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
  return [
    `  ${s.id.padEnd(width)}  ${displayCommand(s.command, s.args)}${s.disabled ? '  (disabled)' : ''}`,
    `${pad}cwd ${cwd}; ${restart}; ${health}`,
  ];
}
