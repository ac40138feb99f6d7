import { statSync } from 'node:fs';
import { loadConfig } from '../config/parse-config.js';
import type { SupervisorConfig } from '../config/types.js';
import { CliError, usageError } from './errors.js';

/**
 * Loads a config file for a command. A path that does not name a readable file is a usage error (exit 2);
 * a file with problems throws the loader's ConfigError, whose located lines the program prints (exit 1).
 */
export async function readConfigFile(path: string): Promise<SupervisorConfig> {
  assertConfigPath(path);
  return loadConfig(path);
}

/** Throws the usage error (exit 2) of a config path that names no file. */
export function assertConfigPath(path: string): void {
  try {
    if (statSync(path).isDirectory()) throw usageError(`cannot read config '${path}': it is a directory`);
  } catch (err) {
    if (err instanceof CliError) throw err;
    throw usageError(`cannot read config '${path}': ${describeFsError(err)}`, 'config_unreadable');
  }
}

/** Validates `--trust` ids against the config so a typo fails loudly instead of silently refusing. */
export function checkServerIds(config: SupervisorConfig, ids: readonly string[], flag: string): void {
  const known = new Set(config.servers.map((s) => s.id));
  const unknown = ids.filter((id) => !known.has(id));
  if (unknown.length === 0) return;
  const list = [...known].join(', ') || 'none';
  throw usageError(
    `${flag} names unknown server '${unknown.join("', '")}' (servers: ${list})`,
    'unknown_server',
  );
}

function describeFsError(err: unknown): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EACCES') return 'permission denied';
  return err instanceof Error ? err.message : String(err);
}
