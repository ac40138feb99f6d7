/**
 * The UTF-8 size of a value's compact JSON when it is at most `limit`, or undefined when it is larger. A cheap
 * lower bound is walked first and gives up as soon as it passes the limit, so a value of megabytes is never
 * stringified just to learn that it is too big; only values that may fit are stringified for the exact figure.
 */
export function jsonSizeWithin(value: unknown, limit: number): number | undefined {
  if (lowerBound(value, limit) > limit) return undefined;
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    return undefined;
  }
  if (json === undefined) return 0;
  // a UTF-16 unit is at least one byte: a string of more units than the limit cannot fit
  if (json.length > limit) return undefined;
  const bytes = Buffer.byteLength(json, 'utf8');
  return bytes <= limit ? bytes : undefined;
}

/** At most the JSON's length; stops early (returning something over `limit`) once the limit is passed. */
function lowerBound(value: unknown, limit: number): number {
  let total = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') total += v.length + 2;
    else if (typeof v !== 'object' || v === null) total += 1;
    else if (Array.isArray(v)) {
      total += 1 + v.length;
      if (total > limit) return total;
      for (const item of v) stack.push(item);
    } else {
      total += 1;
      for (const key in v) {
        total += key.length + 3;
        stack.push((v as Record<string, unknown>)[key]);
      }
    }
    if (total > limit) return total;
  }
  return total;
}
