// What `check` can tell about a launch before anything runs: a command that is not there, a cwd that is not a
// directory. Kept out of parseConfig, which reads only the text: these depend on the machine the check runs on.
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { delimiter, resolve } from 'node:path';
import { buildChildEnv } from '../process/child-env.js';
import { resolveExecutable } from '../process/resolve-executable.js';
import { type LocatedProblem, parseLocatedYaml } from '../registry/located-yaml.js';
import { blankJsonComments, isJsonSource } from './jsonc.js';
import type { SupervisorConfig } from './types.js';

/**
 * Problems of each enabled server's launch on this machine, located at the `command` or `cwd` it comes from.
 * `text` is the config text `config` was parsed from; `hostEnv` supplies the child's PATH, as at run time.
 */
export async function launchProblems(
  config: SupervisorConfig,
  text: string,
  hostEnv: Readonly<Record<string, string | undefined>> = process.env,
): Promise<LocatedProblem[]> {
  const body = text.startsWith('\uFEFF') ? ` ${text.slice(1)}` : text;
  const doc = parseLocatedYaml(isJsonSource(config.source) ? blankJsonComments(body) : body, config.source);
  const top = (doc.value ?? {}) as Record<string, unknown>;
  const container = 'mcpServers' in top ? 'mcpServers' : 'servers';
  // A config that parsed has one entry per server, in file order.
  const keys = Object.keys((top[container] ?? {}) as object);
  const problems: LocatedProblem[] = [];
  for (const [i, server] of config.servers.entries()) {
    const key = keys[i];
    // A url server runs nowhere here: there is no command to find and no cwd it uses.
    if (server.disabled || key === undefined || server.remote) continue;
    const at = (field: string, message: string) =>
      problems.push({
        source: config.source,
        ...doc.locate([container, key, field]),
        path: `${container}.${key}.${field}`,
        message,
      });
    const cwdProblem = await directoryProblem(server.cwd);
    if (cwdProblem) at('cwd', cwdProblem);
    const pathEnv = buildChildEnv(hostEnv, server.inheritEnv, server.env).PATH ?? '';
    const commandProblem = await commandProblemOf(server.command, server.cwd, pathEnv);
    if (commandProblem) at('command', commandProblem);
  }
  return problems;
}

async function directoryProblem(dir: string): Promise<string | undefined> {
  try {
    if (!(await stat(dir)).isDirectory()) return `cwd ${dir} is not a directory`;
    return undefined;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? `cwd ${dir} does not exist` : `cwd ${dir} cannot be used (${code})`;
  }
}

async function commandProblemOf(command: string, cwd: string, pathEnv: string): Promise<string | undefined> {
  const found = await resolveExecutable(command, cwd, pathEnv);
  if (!command.includes('/')) {
    if (found !== null) return undefined;
    const dirs = pathEnv.split(delimiter).filter(Boolean);
    return `command ${JSON.stringify(command)} not found on PATH (searched: ${dirs.length ? dirs.join(delimiter) : 'PATH is empty'})`;
  }
  const file = resolve(cwd, command);
  if (found === null) return `command ${file} does not exist or is not a file`;
  try {
    await access(found, constants.X_OK);
    return undefined;
  } catch {
    return `command ${file} is not executable`;
  }
}
