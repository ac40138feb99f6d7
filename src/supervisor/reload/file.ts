import { ConfigError } from '../../config/config-error.js';
import { loadConfig } from '../../config/parse-config.js';
import type { SupervisorConfig } from '../../config/types.js';
import { formatProblem } from '../../registry/located-yaml.js';
import type { ReloadOutcome } from './reloader.js';

/** A refusal of a config file that does not load: nothing may change, and each problem is located. */
export type InvalidConfig = Extract<ReloadOutcome, { code: 'INVALID_CONFIG' }>;

/** Reads a config file for a reload: the config, or its located problems as the reload's refusal. */
export async function readReloadConfig(path: string): Promise<SupervisorConfig | InvalidConfig> {
  try {
    return await loadConfig(path);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    return {
      ok: false,
      code: 'INVALID_CONFIG',
      message: err.problems.map(formatProblem).join('\n'),
      problems: err.problems,
    };
  }
}
