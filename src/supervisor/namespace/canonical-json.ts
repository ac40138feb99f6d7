/**
 * JSON text with every object's keys sorted, so that two values equal up to key order give the same string
 * (`{a,b}` and `{b,a}`). Array order is kept: in JSON Schema it can carry meaning (`enum`, `prefixItems`).
 * Keys whose value is `undefined` are left out, as `JSON.stringify` does. Used to compare and hash tool
 * definitions.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value)) ?? 'undefined';
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const v = (value as Record<string, unknown>)[key];
    if (v !== undefined) out[key] = sortKeys(v);
  }
  return out;
}
