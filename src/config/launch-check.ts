// What `check` can tell about a launch before anything runs: a command that is not there or cannot be run, a cwd
// that is not a directory. Kept out of parseConfig, which reads only the text: these depend on the machine the
// check runs on. The look-up is the spawn's own (preflight), so check and run cannot disagree.
import { buildChildEnv } from '../process/child-env.js';
import { cwdError, describeSpawnError, resolveCommand } from '../process/preflight.js';
import { dotted, type LocatedProblem } from '../registry/located-yaml.js';
import type { ConfigReading } from './parse-config.js';

/**
 * Problems of each enabled server's launch on this machine, located at the `command` or `cwd` it comes from and
 * coded as the spawn would code them (`ENOENT`, `EACCES`, `CWD_MISSING`). `hostEnv` supplies the child's PATH,
 * as at run time.
 */
export function launchProblems(
  reading: Pick<ConfigReading, 'config' | 'serverPaths' | 'locate'>,
  hostEnv: Readonly<Record<string, string | undefined>> = process.env,
): LocatedProblem[] {
  const { config } = reading;
  if (!config) return [];
  const problems: LocatedProblem[] = [];
  for (const [i, server] of config.servers.entries()) {
    const path = reading.serverPaths[i];
    // A url server runs nowhere here: there is no command to find and no cwd it uses. A missing command is a
    // problem of the file already.
    if (server.disabled || path === undefined || server.remote || server.command === '') continue;
    const at = (field: string, code: string, message: string) =>
      problems.push({
        source: config.source,
        ...reading.locate([...path, field]),
        path: dotted([...path, field]),
        message,
        code,
      });
    const cwd = cwdError(server.command, server.cwd);
    if (cwd) at('cwd', cwd.code, describeSpawnError(cwd));
    const env = buildChildEnv(hostEnv, server.inheritEnv, server.env);
    const file = resolveCommand(server.command, server.cwd, env);
    if (typeof file !== 'string') at('command', file.code, describeSpawnError(file));
  }
  return problems;
}
