// `${VAR}` / `${VAR:-default}` interpolation over the string scalars of a parsed config. Keys are never
// touched. Problems are collected, not thrown, so that one run reports every unset variable. `${file:…}` and
// `${keyring:…}` are secrets: kept as written, read when their server starts (src/secrets).
import { isDeferred, parseDeferred } from '../secrets/scan.js';

/** The environment interpolation reads from (`process.env` by default). */
export type Env = Readonly<Record<string, string | undefined>>;

/** One interpolation problem; `ref` is the reference as written (`${TOKEN}`), for locating it in the text. */
export interface InterpolationIssue {
  message: string;
  ref: string;
}

/** An interpolation problem of a tree, with the path of the scalar it is in. */
export interface TreeInterpolationIssue extends InterpolationIssue {
  path: (string | number)[];
}

/** What a string expands to at load, and whether it still holds secrets read only when its server starts. */
export interface Interpolated {
  value: string;
  issues: InterpolationIssue[];
  /**
   * The string names a `${file:…}` or `${keyring:…}` secret: `value` is then its start-time text (a literal `$`
   * written `$$`, the references kept, a relative file path made absolute), read by `src/secrets/scan.ts`.
   */
  deferred: boolean;
}

const REFERENCE = /^([A-Za-z_][A-Za-z0-9_]*)(?::-(.*))?$/s;

/**
 * Expands one string: `$$` is a literal `$`, `${NAME}` the variable (unset = problem), `${NAME:-default}` the
 * variable unless it is unset or empty. `${env:NAME}` (VS Code spelling) is `${NAME}`; `${input:…}` is refused.
 * A `$` followed by anything else stays as written.
 */
export function interpolateString(text: string, env: Env, baseDir = '/'): Interpolated {
  if (!text.includes('$')) return { value: text, issues: [], deferred: false };
  const deferred = hasDeferred(text);
  // In start-time text every `$` of ours is doubled, so only the references kept are read at the start.
  const literal = (t: string) => (deferred ? t.replaceAll('$', '$$$$') : t);
  const issues: InterpolationIssue[] = [];
  let out = '';
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    const next = text[i + 1];
    if (ch !== '$' || (next !== '$' && next !== '{')) {
      out += ch;
      i++;
      continue;
    }
    if (next === '$') {
      out += literal('$');
      i += 2;
      continue;
    }
    const close = text.indexOf('}', i + 2);
    if (close < 0) {
      issues.push({
        ref: '${',
        message: `unterminated "\${": expected \${NAME} or \${NAME:-default} (write $$ for a literal $)`,
      });
      out += text.slice(i);
      break;
    }
    const body = text.slice(i + 2, close);
    const ref = text.slice(i, close + 1);
    if (isDeferred(body)) {
      const secret = parseDeferred(body, baseDir);
      if ('malformed' in secret) issues.push({ ref, message: secret.malformed });
      else out += secret.kind === 'file' ? `\${file:${secret.path}}` : ref;
    } else {
      out += literal(resolve(body, ref, env, issues));
    }
    i = close + 1;
  }
  return { value: out, issues, deferred };
}

/** True when `text` holds a `${file:…}` or `${keyring:…}` reference (not one escaped as `$${…}`). */
function hasDeferred(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    if (text[i] !== '$') continue;
    if (text[i + 1] === '$') {
      i++;
      continue;
    }
    if (text[i + 1] !== '{') continue;
    const close = text.indexOf('}', i + 2);
    if (close >= 0 && isDeferred(text.slice(i + 2, close))) return true;
  }
  return false;
}

function resolve(body: string, ref: string, env: Env, issues: InterpolationIssue[]): string {
  if (body.startsWith('input:')) {
    issues.push({
      ref,
      message: `${ref}: VS Code input variables are not supported; write the value here or use \${VAR} from the environment`,
    });
    return '';
  }
  const m = REFERENCE.exec(body.startsWith('env:') ? body.slice(4) : body);
  if (!m) {
    issues.push({
      ref,
      message: `invalid reference ${JSON.stringify(ref)}: expected \${NAME} or \${NAME:-default}`,
    });
    return '';
  }
  const name = m[1]!;
  const fallback = m[2];
  const value = env[name];
  if (fallback !== undefined) return value === undefined || value === '' ? fallback : value;
  if (value === undefined) {
    issues.push({
      ref,
      message: `environment variable ${name} is not set (write \${${name}:-value} to give a default)`,
    });
    return '';
  }
  return value;
}

/** Interpolates every string scalar under `value` (a plain JS tree from YAML); a self-containing alias is a problem. */
export function interpolateTree(
  value: unknown,
  env: Env,
  path: (string | number)[],
  baseDir = '/',
): { value: unknown; issues: TreeInterpolationIssue[]; deferred: (string | number)[][] } {
  const issues: TreeInterpolationIssue[] = [];
  const deferred: (string | number)[][] = [];
  const ancestors = new Set<object>();
  const walk = (v: unknown, at: (string | number)[]): unknown => {
    if (typeof v === 'string') {
      const r = interpolateString(v, env, baseDir);
      for (const issue of r.issues) issues.push({ ...issue, path: at });
      if (r.deferred) deferred.push(at);
      return r.value;
    }
    if (typeof v !== 'object' || v === null) return v;
    if (ancestors.has(v)) {
      issues.push({ path: at, ref: '', message: 'recursive alias: this value contains itself' });
      return null;
    }
    if (!Array.isArray(v) && Object.getPrototypeOf(v) !== Object.prototype) return v;
    ancestors.add(v);
    let out: unknown;
    if (Array.isArray(v)) {
      out = v.map((item, i) => walk(item, [...at, i]));
    } else {
      const obj = {};
      for (const [k, item] of Object.entries(v)) {
        // defineProperty, not assignment: a `__proto__` key must stay a plain key.
        Object.defineProperty(obj, k, {
          value: walk(item, [...at, k]),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      out = obj;
    }
    ancestors.delete(v);
    return out;
  };
  return { value: walk(value, path), issues, deferred };
}
