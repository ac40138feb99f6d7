/**
 * How deep a parsed JSON value may nest before it is refused. `JSON.parse` reads any depth, but
 * `JSON.stringify`, `structuredClone` and every recursive walk (hashing a tool definition, a schema check) run
 * out of stack near 5,000 levels, fewer when called deep in a stack: a hostile server's 30 KB of `{"a":{"a":…`
 * would throw wherever the value goes next. No tool schema or log payload seen in practice comes near 256.
 */
export const MAX_JSON_DEPTH = 256;

/** True when `value` has objects or arrays nested more than `max` deep; walked without recursion. */
export function nestedDeeperThan(value: unknown, max: number = MAX_JSON_DEPTH): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const stack: object[] = [value];
  const depths: number[] = [1];
  while (stack.length > 0) {
    const v = stack.pop() as Record<string, unknown> | unknown[];
    const depth = depths.pop() as number;
    if (depth > max) return true;
    const children = Array.isArray(v) ? v : Object.values(v);
    for (const child of children) {
      if (typeof child === 'object' && child !== null) {
        stack.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return false;
}
