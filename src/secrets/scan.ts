import type { SecretReference } from './reference.js';

/** The kinds resolved when a server starts, never when the config loads. */
const DEFERRED = /^(file|keyring):/;

/** True when `body` (the text between `${` and `}`) names a secret read at start: `file:…` or `keyring:…`. */
export function isDeferred(body: string): boolean {
  return DEFERRED.test(body);
}

/**
 * Reads the body of a `${file:…}` or `${keyring:…}` reference, or says why it is malformed. `baseDir` makes a
 * relative file path absolute (the config file's directory), so the reference kept means one file wherever it runs.
 */
export function parseDeferred(body: string, baseDir: string): SecretReference | { malformed: string } {
  const ref = `\${${body}}`;
  if (body.startsWith('file:')) {
    const path = body.slice(5);
    if (path === '') return { malformed: `${ref}: expected \${file:PATH}` };
    return { kind: 'file', path: path.startsWith('/') ? path : `${baseDir.replace(/\/$/, '')}/${path}`, ref };
  }
  const rest = body.slice('keyring:'.length);
  const slash = rest.indexOf('/');
  const service = slash < 0 ? '' : rest.slice(0, slash);
  const account = slash < 0 ? '' : rest.slice(slash + 1);
  if (service === '' || account === '')
    return { malformed: `${ref}: expected \${keyring:SERVICE/ACCOUNT}, both parts non-empty` };
  return { kind: 'keyring', service, account, ref };
}

/** One piece of a start-time string: literal text, or a reference to read. */
export type Piece = { text: string } | { secret: SecretReference };

/**
 * Splits a start-time string (what the config keeps where a secret is referenced) into literal text and the
 * references to read: `$$` is one literal `$`, `${file:…}` and `${keyring:…}` are references (their paths already
 * absolute), anything else is literal.
 */
export function pieces(text: string): Piece[] {
  const out: Piece[] = [];
  let literal = '';
  let i = 0;
  while (i < text.length) {
    if (text[i] === '$' && text[i + 1] === '$') {
      literal += '$';
      i += 2;
      continue;
    }
    if (text[i] === '$' && text[i + 1] === '{') {
      const close = text.indexOf('}', i + 2);
      const body = close < 0 ? '' : text.slice(i + 2, close);
      if (close >= 0 && isDeferred(body)) {
        const parsed = parseDeferred(body, '/');
        if (!('malformed' in parsed)) {
          if (literal !== '') out.push({ text: literal });
          literal = '';
          out.push({ secret: parsed });
          i = close + 1;
          continue;
        }
      }
    }
    literal += text[i];
    i++;
  }
  if (literal !== '') out.push({ text: literal });
  return out;
}
