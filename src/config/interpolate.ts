// `${VAR}` / `${VAR:-default}` interpolation over the string scalars of a parsed config. Keys are never
// touched. Problems are collected, not thrown, so that one run reports every unset variable.

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

const REFERENCE = /^([A-Za-z_][A-Za-z0-9_]*)(?::-(.*))?$/s;

/**
 * Expands one string: `$$` is a literal `$`, `${NAME}` the variable (unset = problem), `${NAME:-default}` the
 * variable unless it is unset or empty. `${env:NAME}` (VS Code spelling) is `${NAME}`; `${input:…}` is refused.
 * A `$` followed by anything else stays as written.
 */
export function interpolateString(text: string, env: Env): { value: string; issues: InterpolationIssue[] } {
  if (!text.includes('$')) return { value: text, issues: [] };
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
      out += '$';
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
    out += resolve(body, ref, env, issues);
    i = close + 1;
  }
  return { value: out, issues };
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
): { value: unknown; issues: TreeInterpolationIssue[] } {
  const issues: TreeInterpolationIssue[] = [];
  const ancestors = new Set<object>();
  const walk = (v: unknown, at: (string | number)[]): unknown => {
    if (typeof v === 'string') {
      const r = interpolateString(v, env);
      for (const issue of r.issues) issues.push({ ...issue, path: at });
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
  return { value: walk(value, path), issues };
}
