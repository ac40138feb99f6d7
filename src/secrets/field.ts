/**
 * The keys of a secret field of a server (`env.TOKEN`, `args.2`, `remote.headers.X-Api.Key`, `remote.url`): only
 * the first dot splits, but under `remote.headers` the header name keeps any dots it has.
 */
export function fieldKeys(field: string): string[] {
  if (field.startsWith('remote.headers.'))
    return ['remote', 'headers', field.slice('remote.headers.'.length)];
  const dot = field.indexOf('.');
  return dot < 0 ? [field] : [field.slice(0, dot), field.slice(dot + 1)];
}

/** The value at a secret field, or undefined where the server has none. */
export function fieldValue(root: unknown, field: string): unknown {
  let at = root;
  for (const key of fieldKeys(field))
    at = at !== null && typeof at === 'object' ? (at as Record<string, unknown>)[key] : undefined;
  return at;
}

/** Sets the value at a secret field of a copy the caller owns. */
export function setFieldValue(root: unknown, field: string, value: string): void {
  const keys = fieldKeys(field);
  let at = root as Record<string, unknown>;
  for (const key of keys.slice(0, -1)) at = at[key] as Record<string, unknown>;
  at[keys[keys.length - 1] as string] = value;
}
