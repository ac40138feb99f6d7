/**
 * How deep a parsed JSON value may nest before it is refused. `JSON.parse` reads any depth, but
 * `JSON.stringify`, `structuredClone` and every recursive walk (hashing a tool definition, a schema check) run
 * out of stack near 5,000 levels, fewer when called deep in a stack: a hostile server's 30 KB of `{"a":{"a":…`
 * would throw wherever the value goes next. No tool schema or log payload seen in practice comes near 256.
 */
export const MAX_JSON_DEPTH = 256;

// Up to this bound the walk recurses (never more than `max` + 1 calls deep, however deep the value goes) and
// allocates nothing, which matters on every answer; past it, a stack of its own.
const RECURSION_BOUND = 1024;

/** True when `value` has objects or arrays nested more than `max` deep. */
export function nestedDeeperThan(value: unknown, max: number = MAX_JSON_DEPTH): boolean {
  if (typeof value !== 'object' || value === null) return false;
  return max <= RECURSION_BOUND ? deeper(value, max) : deeperWalked(value, max);
}

/** `left`: how many more levels may follow, this one included. */
function deeper(v: object, left: number): boolean {
  if (left <= 0) return true;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const child: unknown = v[i];
      if (typeof child === 'object' && child !== null && deeper(child, left - 1)) return true;
    }
    return false;
  }
  for (const key in v) {
    const child: unknown = (v as Record<string, unknown>)[key];
    if (typeof child === 'object' && child !== null && deeper(child, left - 1)) return true;
  }
  return false;
}

function deeperWalked(value: object, max: number): boolean {
  const stack: object[] = [value];
  const depths: number[] = [1];
  while (stack.length > 0) {
    const v = stack.pop() as Record<string, unknown> | unknown[];
    const depth = depths.pop() as number;
    if (depth > max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (typeof child === 'object' && child !== null) {
        stack.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return false;
}
