/** What a masked value is shown as. */
export const MASK = '***';

/** The longest value ever shown; anything longer could be a key, a certificate or a connection string. */
export const MAX_SHOWN_LENGTH = 40;

// Substrings, not words: masking `MONKEY` or `AUTHOR` by mistake costs nothing, showing a secret costs a lot.
const SECRET_NAME =
  /TOKEN|KEY|SECRET|PASSW|PASS|PWD|AUTH|CRED|COOKIE|SESSION|PRIVATE|CERT|SIGN|SALT|BEARER|JWT|DSN/;

/** True when an env name (or flag name) suggests its value is a secret. */
export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name.toUpperCase());
}

/** True when a value looks like a credential whatever its name: too long to be a plain setting, or token-shaped. */
export function looksSecretValue(value: string): boolean {
  return value.length > MAX_SHOWN_LENGTH || looksLikeToken(value) || maskInline(value) !== value;
}

/**
 * True when text holds a URL with a password in it, a PEM block, a hex digest, a UUID, or a run of token
 * characters that mixes character classes the way random text does.
 */
export function looksLikeToken(value: string): boolean {
  if (/:\/\/[^/\s@]*:[^/\s@]*@/.test(value) || value.includes('-----BEGIN')) return true;
  if ((value.match(/[0-9a-f]{16,}|[0-9A-F]{16,}/g) ?? []).some((h) => /[0-9]/.test(h) && /[a-f]/i.test(h))) {
    return true;
  }
  if (/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/i.test(value)) return true;
  return (value.match(/[A-Za-z0-9_+/=-]{12,}/g) ?? []).some(looksRandom);
}

// Words and versions switch between lower, upper and digit rarely; random tokens switch at about every other
// character. Upper → lower is how a CamelCase word begins, so it is not counted.
function looksRandom(run: string): boolean {
  const kinds = [...run].map((ch) =>
    /[a-z]/.test(ch) ? 1 : /[A-Z]/.test(ch) ? 2 : /[0-9]/.test(ch) ? 3 : 0,
  );
  const alnum = kinds.filter((k) => k !== 0);
  if (new Set(alnum).size < 2 || alnum.length < 12) return false;
  let switches = 0;
  for (let i = 1; i < alnum.length; i++) {
    const [a, b] = [alnum[i - 1], alnum[i]];
    if (a !== b && !(a === 2 && b === 1)) switches++;
  }
  return switches / (alnum.length - 1) >= 0.2 && shannonBitsPerChar(run) >= 3;
}

/** The value as a person may see it: shown only when neither its name nor its shape suggests a secret. */
export function maskValue(name: string, value: string): string {
  return isSecretName(name) || looksSecretValue(value) ? MASK : value;
}

/** Masks every value of an env map (names are always shown), in name order. */
export function maskEnv(env: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of Object.keys(env).sort()) out[name] = maskValue(name, env[name] ?? '');
  return out;
}

/**
 * Masks the values of a url server's headers (names are always shown), in name order. A value that is only
 * `${VAR}` references with plain words around them (`Bearer ${TOKEN}`) shows as written: it names the secret, it
 * does not hold it.
 */
export function maskHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of Object.keys(headers).sort()) {
    const value = headers[name] ?? '';
    out[name] = isReferenceOnly(value) ? value : maskValue(name, value);
  }
  return out;
}

function isReferenceOnly(value: string): boolean {
  // A default (`${VAR:-value}`) is written in the config itself and may be the secret: only bare references pass.
  const rest = value.replace(/\$\{(?:env:)?[A-Za-z_][A-Za-z0-9_]*\}/g, '');
  return rest !== value && /^[A-Za-z ]*$/.test(rest);
}

/**
 * Masks secrets on a command line: `--token=abc` → `--token=***`, the value after a secret-named flag
 * (`--api-key abc`) or after `-p` (a password, as mysql and friends take it), a secret header
 * (`Authorization: ***`), and inside any arg: the password of `user:pw@host`, secret-named pairs of a
 * connection string or query (`Password=***;`, `?token=***`), well-known token shapes (`AKIA…`, `xoxb-…`,
 * `ghp_…`, `sk-…`), and an arg that is token-shaped as a whole. Length alone masks nothing here: paths and
 * flags stay readable.
 */
export function maskArgs(args: readonly string[]): string[] {
  const out: string[] = [];
  let hideNext = false;
  for (const arg of args) {
    out.push(hideNext && !arg.startsWith('-') ? MASK : maskArg(arg));
    hideNext = arg === '-p' || (/^--?[A-Za-z0-9][\w.-]*$/.test(arg) && isSecretName(arg));
  }
  return out;
}

/** Masks the secrets inside one piece of text (an env value shown whole, a log line): see {@link maskArgs}. */
export function maskInline(text: string): string {
  let out = text;
  for (const re of KNOWN_TOKENS) out = out.replace(re, MASK);
  // `scheme://user:pw@host` and a bare `user:pw@host`.
  out = out.replace(/(^|[\s/=,;])([^\s:/@]+):([^\s/@]+)@/g, (_, pre, user, pw) =>
    pw === MASK ? `${pre}${user}:${pw}@` : `${pre}${user}:${MASK}@`,
  );
  // `Password=x;` in a connection string, `token=x&` in a query: any pair whose name looks secret.
  out = out.replace(/(^|[;&?\s])([A-Za-z][\w .-]*?)=([^;&\s]*)/g, (whole, pre, name, value) =>
    isSecretName(name) && value !== '' && value !== MASK ? `${pre}${name}=${MASK}` : whole,
  );
  return out;
}

// Shapes that are credentials wherever they appear, whatever they are called.
const KNOWN_TOKENS = [
  /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g,
  /\bxox[abposr]-[A-Za-z0-9-]{8,}/g,
  /\bgh[pousr]_[A-Za-z0-9]{20,}/g,
  /\bgithub_pat_[A-Za-z0-9_]{20,}/g,
  /\bglpat-[A-Za-z0-9_-]{16,}/g,
  /\bsk-(?:[A-Za-z0-9_-]*-)?[A-Za-z0-9]{16,}/g,
  /\bAIza[0-9A-Za-z_-]{30,}/g,
];

function maskArg(arg: string): string {
  const flag = /^(--?[A-Za-z0-9][\w.-]*)=([\s\S]*)$/.exec(arg);
  if (flag) {
    if (isSecretName(flag[1]!)) return `${flag[1]}=${MASK}`;
    const inner = maskInline(flag[2]!);
    if (inner !== flag[2]) return `${flag[1]}=${inner}`;
    return looksLikeToken(flag[2]!) ? `${flag[1]}=${MASK}` : arg;
  }
  const header = /^([A-Za-z][\w-]*):\s*\S/.exec(arg);
  if (header && isSecretName(header[1]!)) return `${header[1]}: ${MASK}`;
  const inline = maskInline(arg);
  if (arg.startsWith('-') || looksLikePath(arg) || inline !== arg) return inline;
  return looksLikeToken(arg) ? MASK : arg;
}

// Store paths and build directories carry digests (`/nix/store/<hash>-node`) yet are no secret.
function looksLikePath(arg: string): boolean {
  return /^(\.{0,2}\/|~\/)/.test(arg) && !/\s/.test(arg);
}

function shannonBitsPerChar(text: string): number {
  const counts = new Map<string, number>();
  for (const ch of text) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) {
    const p = n / text.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}
