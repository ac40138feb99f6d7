// What `check` reads of each server's secrets, as a start would, printing no value: a reference that cannot be
// read is a problem located at its `${`, coded SECRET_UNAVAILABLE.
import { relative } from 'node:path';
import type { ConfigReading } from '../config/parse-config.js';
import { parseSessionKey } from '../config/session-key.js';
import { dotted, type LocatedProblem } from '../registry/located-yaml.js';
import { fieldValue } from '../secrets/field.js';
import { readSecret } from '../secrets/read.js';
import { pieces } from '../secrets/scan.js';

/** Where a ServerConfig field stands in the document, below the server's own path. */
function documentPath(field: string): (string | number)[] {
  if (field === 'remote.url') return ['url'];
  if (field.startsWith('remote.headers.')) return ['headers', field.slice('remote.headers.'.length)];
  const dot = field.indexOf('.');
  const key = field.slice(0, dot);
  const rest = field.slice(dot + 1);
  return [key, key === 'args' ? Number(rest) : rest];
}

/** Reads every secret of every enabled server, one after another; each failure is a located problem. */
export async function secretFindings(
  reading: Pick<ConfigReading, 'config' | 'serverPaths' | 'locate'>,
  text: string,
  baseDir: string,
): Promise<LocatedProblem[]> {
  const { config } = reading;
  if (!config) return [];
  const places: Array<{ at: (string | number)[]; value: string }> = [];
  for (const [i, server] of config.servers.entries()) {
    const path = reading.serverPaths[i];
    if (server.disabled || path === undefined) continue;
    for (const field of server.secretFields ?? []) {
      const value = fieldValue(server, field);
      if (typeof value === 'string') places.push({ at: [...path, ...documentPath(field)], value });
    }
  }
  // serve's own: the tokens of serve.auth and the session key, read as `serve` reads them.
  for (const [i, t] of (config.serve?.auth?.tokens ?? []).entries())
    if (t.secret) places.push({ at: ['serve', 'auth', 'tokens', i, 'token'], value: t.token });
  const key = config.serve?.sessionKey;
  if (config.serve?.sessionKeySecret && key !== undefined)
    places.push({ at: ['serve', 'sessionKey'], value: key });
  const problems: LocatedProblem[] = [];
  for (const { at, value } of places) {
    const found = (message: string, written: readonly string[]) =>
      problems.push({
        source: config.source,
        ...locateRef(text, reading.locate(at), written),
        path: dotted(at),
        message,
        code: 'SECRET_UNAVAILABLE',
      });
    const read: string[] = [];
    for (const piece of pieces(value)) {
      if (!('secret' in piece)) {
        read.push(piece.text);
        continue;
      }
      const got = await readSecret(piece.secret);
      const written =
        piece.secret.kind === 'file'
          ? [piece.secret.ref, `\${file:${relative(baseDir, piece.secret.path)}}`]
          : [piece.secret.ref];
      if (got.ok) read.push(got.value);
      else found(got.failure.detail, written);
    }
    // A session key read whole must also be one: checked as serve --http checks it, the value never shown.
    if (at[1] === 'sessionKey' && read.length === pieces(value).length) {
      const parsed = parseSessionKey(read.join(''));
      if (!parsed.ok) found(`what the reference holds is not a key: ${parsed.message}`, ['${']);
    }
  }
  return problems;
}

/** The line and column of the reference's `${` in the scalar at `base`, or the scalar's own place. */
function locateRef(
  text: string,
  base: { line: number; col: number },
  forms: readonly string[],
): { line: number; col: number } {
  const lines = text.split('\n');
  let from = base.col - 1;
  for (let line = base.line - 1; line < Math.min(lines.length, base.line + 20); line++) {
    const row = lines[line] ?? '';
    for (const form of forms) {
      const found = row.indexOf(form, from);
      if (found >= 0) return { line: line + 1, col: found + 1 };
    }
    from = 0;
  }
  return base;
}
