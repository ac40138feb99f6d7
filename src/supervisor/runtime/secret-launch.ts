import type { ServerConfig } from '../../config/types.js';
import { failedStartExit } from '../../process/failed-start.js';
import type { ExitInfo } from '../../process/server-process.js';
import { fieldValue, setFieldValue } from '../../secrets/field.js';
import { secretMask } from '../../secrets/mask.js';
import { readSecret } from '../../secrets/read.js';
import type { SecretFailure } from '../../secrets/reference.js';
import { resolveText } from '../../secrets/resolve.js';

/**
 * A server's launch with its secrets read in, at its start and only for it: the config keeps the references, this
 * copy goes to the spawn and nowhere else. A secret that cannot be read is the start's failure, naming the
 * reference, never a value.
 */
export async function readSecrets(server: ServerConfig): Promise<
  | {
      ok: true;
      server: ServerConfig;
      warnings: string[];
      /** The values read, in field order: what a reload compares (never kept but as a digest). */
      values: string[];
      mask?: ((text: string) => string) | undefined;
    }
  | { ok: false; exit: ExitInfo }
> {
  const fields = server.secretFields;
  if (!fields || fields.length === 0) return { ok: true, server, warnings: [], values: [] };
  const launch = structuredClone(server);
  const warnings: string[] = [];
  const values: string[] = [];
  for (const field of fields) {
    const text = fieldValue(launch, field);
    if (typeof text !== 'string') continue;
    const got = await resolveText(text, readSecret);
    if (!got.ok) return { ok: false, exit: secretExit(server, got.failure) };
    warnings.push(...got.warnings);
    values.push(...got.secrets);
    setFieldValue(launch, field, got.value);
  }
  return { ok: true, server: launch, warnings, values, mask: secretMask(values) };
}

function secretExit(server: ServerConfig, failure: SecretFailure): ExitInfo {
  return failedStartExit({
    code: failure.code,
    command: server.command,
    cwd: server.cwd,
    detail: failure.detail,
  });
}
