/** UTF-8-safe capping and human sizes for flattened tool results (pure). */

/** 64 KiB: the default cap on a flattened tool result. */
export const DEFAULT_MAX_RESULT_BYTES = 64 * 1024;

const encoder = new TextEncoder();

interface WellFormed {
  isWellFormed(): boolean;
  toWellFormed(): string;
}

/** True when the text has no lone surrogate (so it encodes to UTF-8 losslessly). */
export function isWellFormed(text: string): boolean {
  return (text as unknown as WellFormed).isWellFormed();
}

/** The text with every lone surrogate replaced by U+FFFD, so it always encodes to valid UTF-8. */
export function wellFormed(text: string): string {
  const s = text as unknown as WellFormed;
  return s.isWellFormed() ? text : s.toWellFormed();
}

/** The marker that ends a capped text; `dropped` is how many UTF-8 bytes were cut. */
export function truncationMarker(dropped: number): string {
  return `… [truncated ${dropped} bytes]`;
}

/** UTF-8 length of a string, counting a lone surrogate as the 3 bytes of U+FFFD. */
export function utf8Length(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** A usable byte cap: negative or NaN falls back to the default, Infinity means no cap. */
export function normalizeMaxBytes(maxBytes: number | undefined): number {
  if (maxBytes === undefined || Number.isNaN(maxBytes) || maxBytes < 0) return DEFAULT_MAX_RESULT_BYTES;
  return Math.floor(maxBytes);
}

/**
 * Caps `text` at `maxBytes` UTF-8 bytes on a character boundary, ending with the truncation marker; the whole
 * result stays within `maxBytes` unless the cap is too small for the marker itself (then only the marker).
 */
export function capUtf8(text: string, maxBytes: number): string {
  const s = wellFormed(text);
  if (s.length * 3 <= maxBytes) return s;
  const total = utf8Length(s);
  if (total <= maxBytes) return s;
  const room = maxBytes - utf8Length(truncationMarker(total));
  if (room <= 0) return truncationMarker(total);
  // encodeInto writes whole characters only, so `read` never ends inside a surrogate pair
  const { read, written } = encoder.encodeInto(s, new Uint8Array(room));
  return s.slice(0, read) + truncationMarker(total - written);
}

const UNITS = ['KiB', 'MiB', 'GiB', 'TiB'];

/** A byte count for people: `512 B`, `29.3 KiB`, `1.0 MiB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  let value = bytes / 1024;
  let unit = 0;
  while (unit < UNITS.length - 1 && Number(value.toFixed(1)) >= 1024) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${UNITS[unit]}`;
}

/** How many bytes a base64 string decodes to, computed without decoding it. */
export function base64DecodedBytes(data: string): number {
  let len = data.length;
  while (len > 0 && /\s/.test(data[len - 1]!)) len--;
  let pad = 0;
  while (pad < 2 && len > 0 && data.charCodeAt(len - 1) === 0x3d) {
    len--;
    pad++;
  }
  return Math.floor((len * 3) / 4);
}
