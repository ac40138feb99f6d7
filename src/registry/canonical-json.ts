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
  return write(value) ?? 'undefined';
}

/**
 * The text of one value, written directly rather than as `JSON.stringify` of a sorted copy: a fleet's start
 * hashes every tool of every server, and the copies were most of what that allocated. Values JSON.stringify
 * leaves out of an object (undefined, functions, symbols) give undefined here, and null inside an array.
 */
function write(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) out += `${i === 0 ? '' : ','}${write(value[i]) ?? 'null'}`;
    return `${out}]`;
  }
  const keys = Object.keys(value);
  // Keys that are array indices come first, in numeric order, as any object lists them: the sorted copy this text
  // once came from did, so stored pins and fingerprints of schemas with keys like "1", "2", "10" stay valid.
  let indices = 0;
  while (indices < keys.length && isIndex(keys[indices] as string)) indices++;
  const named = sortNames(keys, indices);
  let out = '{';
  let first = true;
  for (let i = 0; i < keys.length; i++) {
    const key = (i < indices ? keys[i] : named[i - indices]) as string;
    const text = write((value as Record<string, unknown>)[key]);
    if (text === undefined) continue;
    out += `${first ? '' : ','}${JSON.stringify(key)}:${text}`;
    first = false;
  }
  return `${out}}`;
}

/**
 * `keys` from `from` on, sorted as `Array.prototype.sort` sorts strings (by UTF-16 code units). A schema's objects
 * have a handful of keys each, and sorting them in place spares the copies `sort` makes: hashing every tool of a
 * thousand servers sorted millions of small arrays.
 */
function sortNames(keys: string[], from: number): string[] {
  const named = from === 0 ? keys : keys.slice(from);
  if (named.length > 16) return named.sort();
  for (let i = 1; i < named.length; i++) {
    const key = named[i] as string;
    let j = i - 1;
    while (j >= 0 && (named[j] as string) > key) {
      named[j + 1] = named[j] as string;
      j--;
    }
    named[j + 1] = key;
  }
  return named;
}

const INDEX = /^(?:0|[1-9]\d{0,9})$/;

/** An array index as objects order their keys: a canonical integer below 2³² − 1. */
function isIndex(key: string): boolean {
  return INDEX.test(key) && Number(key) < 4294967295;
}
