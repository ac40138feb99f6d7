import { readKeyring } from './keyring.js';
import { readSecretFile, type SecretRead } from './read-file.js';
import type { SecretReference } from './reference.js';

/** Reads one start-time secret where it is kept: a file, or the OS keyring. */
export async function readSecret(secret: SecretReference): Promise<SecretRead> {
  if (secret.kind === 'file') return readSecretFile(secret.path, secret.ref);
  if (secret.kind === 'keyring') {
    const read = await readKeyring(secret.service, secret.account, { ref: secret.ref });
    // Named by its reference, as a file's failure is: the detail is what a person reads on its own.
    return read.ok
      ? read
      : { ok: false, failure: { ...read.failure, detail: `${secret.ref}: ${read.failure.detail}` } };
  }
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
