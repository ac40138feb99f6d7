// The launch values of a config built in code rather than parsed: what the schema refuses in a file (a NUL byte,
// which no argv, environment or path can hold) must not reach spawn from there either, where it would throw.
import type { LocatedProblem } from '../registry/located-yaml.js';
import { ConfigError } from './config-error.js';
import { NUL_MESSAGE } from './schema.js';
import type { SupervisorConfig } from './types.js';

/** Throws a ConfigError naming every launch value of `config` that holds a NUL byte (`servers.<id>.args[1]`). */
export function assertLaunchValues(config: SupervisorConfig): void {
  const problems: LocatedProblem[] = [];
  const at = (path: string) =>
    // A config built in code has no lines: the problem is placed at the start of its source.
    problems.push({ source: config.source, line: 1, col: 1, path, message: NUL_MESSAGE });
  for (const s of config.servers) {
    const base = `servers.${s.id}`;
    if (s.command.includes('\0')) at(`${base}.command`);
    s.args.forEach((arg, i) => {
      if (arg.includes('\0')) at(`${base}.args[${i}]`);
    });
    for (const [name, value] of Object.entries(s.env)) {
      if (name.includes('\0') || value.includes('\0')) at(`${base}.env.${name.replaceAll('\0', '\\0')}`);
    }
    for (const name of s.inheritEnv) if (name.includes('\0')) at(`${base}.inheritEnv`);
    if (s.cwd.includes('\0')) at(`${base}.cwd`);
    const c = s.container;
    if (!c) continue;
    for (const key of ['image', 'engine', 'user', 'workdir'] as const)
      if (c[key]?.includes('\0')) at(`${base}.container.${key}`);
    c.mounts.forEach((m, i) => {
      if (m.source.includes('\0') || m.target.includes('\0')) at(`${base}.container.mounts[${i}]`);
    });
  }
  if (problems.length > 0) throw new ConfigError(problems);
}
