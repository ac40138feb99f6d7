import { formatProblem, type LocatedProblem } from './located-yaml.js';

export type RegistryErrorCode = 'invalid_name' | 'duplicate_tool' | 'invalid_manifest';

/**
 * Every error the registry layer throws for bad input. Callers print `err.message`: it is written for a person
 * (for `invalid_manifest`, every problem as `file:line:col path: message`, one per line), never a stack trace.
 */
export class RegistryError extends Error {
  override readonly name = 'RegistryError';
  readonly code: RegistryErrorCode;
  /** The located problems behind an `invalid_manifest` error; empty for the other codes. */
  readonly problems: readonly LocatedProblem[];

  constructor(code: RegistryErrorCode, message: string, problems: readonly LocatedProblem[] = []) {
    super(message);
    this.code = code;
    this.problems = problems;
  }

  /** An `invalid_manifest` error whose message lists every problem, one per line. */
  static invalidManifest(problems: readonly LocatedProblem[]): RegistryError {
    return new RegistryError('invalid_manifest', problems.map(formatProblem).join('\n'), problems);
  }
}
