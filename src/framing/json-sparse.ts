/**
 * Bytes of JSON per value at or above which a parsed message is handed from a worker to the main thread as the
 * object rather than as its text. Receiving an object costs the main thread a clone that grows with its values;
 * receiving text costs a copy of the string and then its parse. At 512 bytes per value (long strings: a file's
 * text, base64) the object came over 2× cheaper; at 12–20 bytes per value (dense definitions) the text path was
 * as cheap or cheaper. 128 keeps every measured case on the cheaper side.
 */
export const SPARSE_BYTES_PER_VALUE = 128;

/**
 * True when a value parsed from `byteLength` bytes of JSON holds at most one value (object, array, string,
 * number…) per SPARSE_BYTES_PER_VALUE bytes. The walk stops as soon as the values seen and waiting pass the
 * budget, so a dense value of megabytes costs only the walk up to it.
 */
export function isSparseJson(value: unknown, byteLength: number): boolean {
  const budget = Math.floor(byteLength / SPARSE_BYTES_PER_VALUE);
  let values = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    values++;
    if (typeof v === 'object' && v !== null) {
      // each value waiting on the stack is at least one more: a long array is judged by its length alone
      if (Array.isArray(v)) {
        if (values + stack.length + v.length > budget) return false;
        for (const item of v) stack.push(item);
      } else for (const key in v) stack.push((v as Record<string, unknown>)[key]);
    }
    if (values + stack.length > budget) return false;
  }
  return true;
}
