import { defaultTrustStorePath } from '../supervisor/trust/trust-store.js';
import { STORE_ENV } from './fleet-options.js';

/** The trust store file: `--store`, else `$MCP_SUPERVISOR_TRUST_STORE`, else the per-user default. */
export function trustStorePath(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  return flag ?? (env[STORE_ENV] || defaultTrustStorePath(env));
}
