// What `check` can tell about a launch before anything runs: a command that is not there or cannot be run, a cwd
// that is not a directory. Kept out of parseConfig, which reads only the text: these depend on the machine the
// check runs on. The look-up is the spawn's own (preflight), so check and run cannot disagree. A runtime's script
// argument that names no file (`node missing.js`) is one too: the spawn would succeed and the server die at once.
// A container server's command is looked up inside its image, not here; what is here is the source of each mount,
// when the engine runs on this machine.
import { existsSync } from 'node:fs';
import { buildChildEnv } from '../process/child-env.js';
import { cwdError, describeSpawnError, resolveCommand } from '../process/preflight.js';
import { dotted, type LocatedProblem } from '../registry/located-yaml.js';
import type { ConfigReading } from './parse-config.js';
import { missingScript } from './script-check.js';

/**
 * Problems of each enabled server's launch on this machine, located at the `command` or `cwd` it comes from and
 * coded as the spawn would code them (`ENOENT`, `EACCES`, `CWD_MISSING`), and a missing script file at its arg
 * (`SCRIPT_MISSING`). `hostEnv` supplies the child's PATH, as at run time. For a container server, a mount source
 * that does not exist on this machine (`MOUNT_SOURCE_MISSING`), unless the engine is another machine's.
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
    if (server.disabled || path === undefined || server.remote) continue;
    const at = (field: readonly (string | number)[], code: string, message: string) =>
      problems.push({
        source: config.source,
        ...reading.locate([...path, ...field]),
        path: dotted([...path, ...field]),
        message,
        code,
      });
    if (server.container) {
      // A tcp:// engine binds paths of its own machine: nothing here says whether they exist.
      if (!server.container.engine.startsWith('unix://')) continue;
      for (const [i, mount] of server.container.mounts.entries()) {
        if (!existsSync(mount.source))
          at(
            ['container', 'mounts', i, 'source'],
            'MOUNT_SOURCE_MISSING',
            `mount source ${mount.source} does not exist`,
          );
      }
      continue;
    }
    if (server.command === '') continue;
    const cwd = cwdError(server.command, server.cwd);
    if (cwd) at(['cwd'], cwd.code, describeSpawnError(cwd));
    const env = buildChildEnv(hostEnv, server.inheritEnv, server.env);
    const file = resolveCommand(server.command, server.cwd, env);
    if (typeof file !== 'string') at(['command'], file.code, describeSpawnError(file));
    const script = cwd ? undefined : missingScript(server.command, server.args, server.cwd);
    if (script) {
      const arg = server.args[script.index];
      at(
        ['args', script.index],
        'SCRIPT_MISSING',
        `script ${JSON.stringify(arg)} not found: ${script.file} does not exist`,
      );
    }
  }
  return problems;
}
