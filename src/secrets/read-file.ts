import { readFile, stat } from 'node:fs/promises';
import type { SecretFailure } from './reference.js';

export type SecretRead =
  | { ok: true; value: string; warning?: string }
  | { ok: false; failure: SecretFailure };

/** The largest secret file read: a secret is a token or a key, not a data set. */
const MAX_SECRET_BYTES = 1024 * 1024;

/**
 * A file's contents as a secret: one trailing newline dropped (as `echo token > file` leaves one), a file others
 * may read told as a warning (the value still works: Docker and Kubernetes mount secrets 0444 by default).
 */
export async function readSecretFile(path: string, ref: string): Promise<SecretRead> {
  const fail = (reason: SecretFailure['reason'], detail: string): SecretRead => ({
    ok: false,
    failure: { code: 'SECRET_UNAVAILABLE', reason, ref, detail },
  });
  let mode: number;
  try {
    const st = await stat(path);
    if (!st.isFile()) return fail('file_unreadable', `${ref}: ${path} is not a regular file`);
    if (st.size > MAX_SECRET_BYTES)
      return fail('file_unreadable', `${ref}: ${path} is over ${MAX_SECRET_BYTES} bytes`);
    mode = st.mode;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ENOENT'
      ? fail('file_missing', `${ref}: no file at ${path}`)
      : fail('file_unreadable', `${ref}: ${path} cannot be read (${code ?? 'error'})`);
  }
  let value: string;
  try {
    value = await readFile(path, 'utf8');
  } catch (err) {
    return fail(
      'file_unreadable',
      `${ref}: ${path} cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
  if (value.endsWith('\r\n')) value = value.slice(0, -2);
  else if (value.endsWith('\n')) value = value.slice(0, -1);
  const shared = (mode & 0o044) !== 0;
  return shared
    ? {
        ok: true,
        value,
        warning: `${ref}: ${path} can be read by others than its owner (mode ${(mode & 0o777).toString(8)})`,
      }
    : { ok: true, value };
}
