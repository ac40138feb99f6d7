import { homedir } from 'node:os';
import { join } from 'node:path';
import { defaultTrustStorePath } from '../trust/trust-store.js';
import { STORE_ENV } from './fleet-options.js';

/** The trust store file: `--store`, else `$MCP_SUPERVISOR_TRUST_STORE`, else the per-user default. */
export function trustStorePath(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  return flag ?? (env[STORE_ENV] || defaultTrustStorePath(env));
}

/**
 * Where the on-disk process ledger lives: `--state-dir`, else `$XDG_STATE_HOME/mcp-supervisor`, else
 * `~/.local/state/mcp-supervisor`. A run after a host crash reaps what the crashed one left there.
 */
export function stateDirPath(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  if (flag) return flag;
  const base = env.XDG_STATE_HOME || join(env.HOME || homedir(), '.local', 'state');
  return join(base, 'mcp-supervisor');
}
