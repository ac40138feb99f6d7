/** What a secret's value becomes wherever a server's own output would carry it. */
export const SECRET_MASK = '***';

/** The shortest value masked: a shorter one would turn ordinary words into stars. */
const MIN_MASKED = 4;

/**
 * A function that stars out each value (and its base64, as in a `Basic` header) in a text a server wrote: its
 * stderr, its log messages, the tail an exit carries. The values are this start's secrets, read a moment ago.
 */
export function secretMask(values: readonly string[]): ((text: string) => string) | undefined {
  const forms = new Set<string>();
  for (const v of values) {
    if (v.length < MIN_MASKED) continue;
    forms.add(v);
    forms.add(Buffer.from(v).toString('base64'));
  }
  if (forms.size === 0) return undefined;
  // Longest first: a value that holds another is starred whole.
  const sorted = [...forms].sort((a, b) => b.length - a.length);
  return (text) => {
    let out = text;
    for (const form of sorted) if (out.includes(form)) out = out.split(form).join(SECRET_MASK);
    return out;
  };
}
