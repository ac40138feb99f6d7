import type { SecretRead } from './read-file.js';
import type { SecretFailure, SecretReference } from './reference.js';
import { pieces } from './scan.js';

/** Reads one secret where it is kept. */
export type SecretReader = (secret: SecretReference) => Promise<SecretRead>;

/** The text with its secrets read in, and the values read (to be starred out of what the server writes). */
export type ResolvedText =
  | { ok: true; value: string; warnings: string[]; secrets: string[] }
  | { ok: false; failure: SecretFailure };

/** Start-time text with each secret read in; the first one that cannot be read fails it (naming the reference). */
export async function resolveText(text: string, read: SecretReader): Promise<ResolvedText> {
  let value = '';
  const warnings: string[] = [];
  const secrets: string[] = [];
  for (const piece of pieces(text)) {
    if ('text' in piece) {
      value += piece.text;
      continue;
    }
    const got = await read(piece.secret);
    if (!got.ok) return got;
    if (got.warning !== undefined) warnings.push(got.warning);
    secrets.push(got.value);
    value += got.value;
  }
  return { ok: true, value, warnings, secrets };
}
