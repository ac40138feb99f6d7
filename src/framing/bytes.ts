/** Small byte helpers shared by the splitter, the stream decoder and the worker task (no IO). */

/** A zero-copy Buffer view of any Uint8Array, so `indexOf` is a native memchr. */
export function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** A fresh copy of the first `max` bytes spread over `pieces`. */
export function copyHead(pieces: readonly Uint8Array[], max: number): Uint8Array {
  let total = 0;
  for (const p of pieces) total += p.byteLength;
  const out = new Uint8Array(Math.min(max, total));
  let at = 0;
  for (const p of pieces) {
    if (at >= out.length) break;
    const take = Math.min(p.byteLength, out.length - at);
    out.set(take === p.byteLength ? p : p.subarray(0, take), at);
    at += take;
  }
  return out;
}

/** A fresh copy of the last `max` bytes spread over `pieces`. */
export function copyTail(pieces: readonly Uint8Array[], max: number): Uint8Array {
  let total = 0;
  for (const p of pieces) total += p.byteLength;
  const out = new Uint8Array(Math.min(max, total));
  let at = out.length;
  for (let i = pieces.length - 1; i >= 0 && at > 0; i--) {
    const p = pieces[i]!;
    const take = Math.min(p.byteLength, at);
    at -= take;
    out.set(take === p.byteLength ? p : p.subarray(p.byteLength - take), at);
  }
  return out;
}

/** `tail` followed by `more`, keeping only the last `max` bytes (a rolling window, constant cost per call). */
export function rollTail(tail: Uint8Array, more: Uint8Array, max: number): Uint8Array {
  if (more.byteLength >= max) return more.slice(more.byteLength - max);
  const keep = Math.min(tail.byteLength, max - more.byteLength);
  const out = new Uint8Array(keep + more.byteLength);
  out.set(tail.subarray(tail.byteLength - keep), 0);
  out.set(more, keep);
  return out;
}

/** Decodes UTF-8 spread over `pieces` (one copy at most, never per chunk), so split characters survive. */
export function decodeUtf8(pieces: readonly Uint8Array[], byteLength: number): string {
  if (pieces.length === 0) return '';
  if (pieces.length === 1) return asBuffer(pieces[0]!).toString('utf8');
  return Buffer.concat(pieces, byteLength).toString('utf8');
}

/** JSON's insignificant whitespace (the newline never reaches a line). */
export function isJsonSpace(byte: number | undefined): boolean {
  return byte === 0x20 || byte === 0x09 || byte === 0x0d || byte === 0x0a;
}
