import { randomBytes } from 'node:crypto';
import { closeSync, constants, mkdirSync, openSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { TokenEntry } from '../../gateway/http/auth.js';

/** The file, in the state directory, that holds the token of the running `serve --http`. */
export function runTokenPath(stateDir: string): string {
  return join(stateDir, 'serve-token');
}

/**
 * A token for this run of `serve --http`, written to a file only its owner can read (0600, replaced afresh, never
 * through a link), so the local clients of this user can read it and nobody else's can: loopback is not a
 * boundary on a shared machine. Its scopes are `--scopes`. Returns the entry and a function that removes the file.
 */
export function makeRunToken(
  stateDir: string,
  scopes: readonly string[],
): { entry: TokenEntry; remove: () => void } {
  mkdirSync(stateDir, { recursive: true, mode: 0o700 });
  const path = runTokenPath(stateDir);
  const token = randomBytes(32).toString('hex');
  rmSync(path, { force: true });
  const fd = openSync(
    path,
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
    0o600,
  );
  try {
    writeSync(fd, `${token}\n`);
  } finally {
    closeSync(fd);
  }
  return { entry: { token, scopes, id: 'run-token' }, remove: () => rmSync(path, { force: true }) };
}
