import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { ConfigError } from '../../config/config-error.js';
import type { SupervisorConfig } from '../../config/types.js';
import type { TokenEntry } from '../../gateway/http/auth.js';
import type { LocatedProblem } from '../../registry/located-yaml.js';
import { readSecret } from '../../secrets/read.js';
import { resolveText } from '../../secrets/resolve.js';
import { CliError } from '../errors.js';

/** As `serve.auth.tokens` requires of a token. */
const MIN_TOKEN_LENGTH = 16;

/**
 * Every token `serve --http` accepts: `serve.auth.tokens`, then the lines of `serve.auth.tokensFile`. The file has
 * one `TOKEN [SCOPE …]` per line (spaces or tabs between); blank lines and lines starting with `#` are skipped.
 * Undefined when the config has no `serve.auth`. Problems throw, each located at its file and line.
 */
export async function loadTokens(
  config: SupervisorConfig,
  fromConfig: readonly TokenEntry[],
): Promise<TokenEntry[] | undefined> {
  const auth = config.serve?.auth;
  if (!auth) return undefined;
  const entries = [...fromConfig];
  if (auth.tokensFile !== undefined) entries.push(...(await readTokenFile(auth.tokensFile, entries)));
  if (entries.length === 0)
    throw new CliError('no_tokens', `${config.source}: serve.auth lists no token, so nobody could connect`);
  return entries;
}

/**
 * The tokens of the config itself (`serve.auth.tokens`), each named by its place; one kept in a file or the
 * keyring is read now, and one that cannot be read stops `serve --http`, naming the reference (never a value).
 */
export async function configTokens(config: SupervisorConfig): Promise<TokenEntry[]> {
  const out: TokenEntry[] = [];
  for (const [i, t] of (config.serve?.auth?.tokens ?? []).entries()) {
    const id = `serve.auth.tokens[${i}]`;
    if (!t.secret) {
      out.push({ token: t.token, scopes: t.scopes, id });
      continue;
    }
    const read = await resolveText(t.token, readSecret);
    if (!read.ok) throw new CliError('secret_unavailable', `${config.source}: ${id}: ${read.failure.detail}`);
    out.push({ token: read.value, scopes: t.scopes, id });
  }
  return out;
}

/** The entries of one token file; `before` are the tokens already known (a token written twice is a mistake). */
export async function readTokenFile(path: string, before: readonly TokenEntry[] = []): Promise<TokenEntry[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    const why = (err as NodeJS.ErrnoException).code ?? (err instanceof Error ? err.message : String(err));
    throw new CliError('config_unreadable', `cannot read serve.auth.tokensFile ${path}: ${why}`);
  }
  const problems: LocatedProblem[] = [];
  const entries: TokenEntry[] = [];
  const seen = new Map(before.map((e) => [e.token, e.id]));
  for (const [i, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const [token = '', ...scopes] = line.split(/[ \t]+/);
    const at = (message: string) =>
      problems.push({ source: path, line: i + 1, col: raw.indexOf(token) + 1, path: '', message });
    const id = `${basename(path)}:${i + 1}`;
    if (token.length < MIN_TOKEN_LENGTH) at(`a token must be at least ${MIN_TOKEN_LENGTH} characters`);
    else if (seen.has(token)) at(`this token is already given at ${seen.get(token)}`);
    else {
      seen.set(token, id);
      entries.push({ token, scopes, id });
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return entries;
}
