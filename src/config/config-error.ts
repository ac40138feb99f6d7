import { formatProblem, type LocatedProblem } from '../registry/located-yaml.js';

/**
 * A config that cannot be used. `message` lists every problem, one `file:line:col path: message` per line, and
 * the stack is replaced by that same text: a config mistake is the user's to fix, a trace would only bury it.
 */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  readonly code = 'invalid_config' as const;
  readonly problems: LocatedProblem[];

  constructor(problems: readonly LocatedProblem[]) {
    const list = [...problems];
    super(list.map(formatProblem).join('\n'));
    this.problems = list;
    this.stack = `${this.name}: ${this.message}`;
  }
}
