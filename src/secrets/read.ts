import { readSecretFile, type SecretRead } from './read-file.js';
import type { SecretReference } from './reference.js';

/** Reads one start-time secret where it is kept: a file, or the OS keyring. */
export async function readSecret(secret: SecretReference): Promise<SecretRead> {
  if (secret.kind === 'file') return readSecretFile(secret.path, secret.ref);
  return {
    ok: false,
    failure: {
      code: 'SECRET_UNAVAILABLE',
      reason: 'malformed',
      ref: secret.ref,
      detail: `${secret.ref}: not readable here`,
    },
  };
}
