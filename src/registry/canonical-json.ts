/**
 * JSON text with every object's keys sorted, so that two values equal up to key order give the same string
 * (`{a,b}` and `{b,a}`). Array order is kept: in JSON Schema it can carry meaning (`enum`, `prefixItems`).
 * Keys whose value is `undefined` are left out, as `JSON.stringify` does. Used to compare and hash tool
 * definitions and trust fingerprints.
 *
 * Every own key is data, `__proto__`, `constructor` and `prototype` included: what a server sends is parsed by
 * JSON.parse, which keeps `"__proto__"` as an own key, and a copy into a plain object would turn it into a
 * prototype that JSON.stringify never prints — a definition changed only there would hash the same.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value)) ?? 'undefined';
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value !== 'object' || value === null) return value;
  // No prototype, so assigning `__proto__` makes an own key like any other.
  const out: Record<string, unknown> = Object.create(null);
  for (const key of Object.keys(value).sort()) {
    const v = (value as Record<string, unknown>)[key];
    if (v !== undefined) out[key] = sortKeys(v);
  }
  return out;
}
