import { decodeUtf8, isJsonSpace } from './bytes.js';
import { type JsonRpcMessage, toJsonRpcMessage } from './json-rpc.js';

/** How many UTF-16 units of a noise line are kept in its preview. */
export const PREVIEW_CHARS = 200;
// enough bytes to always hold PREVIEW_CHARS whole characters (≤ 3 bytes per unit, 4 per pair)
const PREVIEW_BYTES = PREVIEW_CHARS * 4;

/** What one complete line is: a message, noise (with a short preview), or nothing (blank). */
export type LineVerdict =
  | { kind: 'message'; message: JsonRpcMessage }
  | { kind: 'noise'; line: string }
  | undefined;

/** The first PREVIEW_CHARS units of a line, never ending in half a surrogate pair. */
export function previewOf(text: string): string {
  if (text.length <= PREVIEW_CHARS) return text;
  const last = text.charCodeAt(PREVIEW_CHARS - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? PREVIEW_CHARS - 1 : PREVIEW_CHARS);
}

function isBlank(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (!isJsonSpace(text.charCodeAt(i))) return false;
  return true;
}

/** Classifies a decoded line: parse it, admit it as JSON-RPC, or call it noise. */
export function classifyText(text: string): LineVerdict {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return isBlank(text) ? undefined : { kind: 'noise', line: previewOf(text) };
  }
  const message = toJsonRpcMessage(value);
  return message ? { kind: 'message', message } : { kind: 'noise', line: previewOf(text) };
}

/** The first byte of a line that is not JSON whitespace, or undefined for a blank line. */
export function firstSignificantByte(pieces: readonly Uint8Array[]): number | undefined {
  for (const p of pieces) {
    for (let i = 0; i < p.byteLength; i++) if (!isJsonSpace(p[i])) return p[i];
  }
  return undefined;
}

/** Noise for a line that cannot be an object, decoding only enough bytes for its preview. */
export function noisePreview(
  pieces: readonly Uint8Array[],
  byteLength: number,
): { kind: 'noise'; line: string } {
  if (byteLength <= PREVIEW_BYTES) return { kind: 'noise', line: previewOf(decodeUtf8(pieces, byteLength)) };
  const head: Uint8Array[] = [];
  let got = 0;
  for (const p of pieces) {
    const take = Math.min(p.byteLength, PREVIEW_BYTES - got);
    head.push(p.subarray(0, take));
    got += take;
    if (got >= PREVIEW_BYTES) break;
  }
  return { kind: 'noise', line: previewOf(decodeUtf8(head, got)) };
}

/** Classifies a line given as byte pieces; a line not starting with `{` is noise without a full decode. */
export function classifyPieces(pieces: readonly Uint8Array[], byteLength: number): LineVerdict {
  const first = firstSignificantByte(pieces);
  if (first === undefined) return undefined;
  if (first !== 0x7b) return noisePreview(pieces, byteLength);
  return classifyText(decodeUtf8(pieces, byteLength));
}

/** Classifies a line given as a byte range of one chunk, without allocating a view of it. */
export function classifySpan(buf: Buffer, start: number, end: number): LineVerdict {
  let i = start;
  while (i < end && isJsonSpace(buf[i])) i++;
  if (i === end) return undefined;
  if (buf[i] !== 0x7b) {
    return {
      kind: 'noise',
      line: previewOf(buf.toString('utf8', start, Math.min(end, start + PREVIEW_BYTES))),
    };
  }
  return classifyText(buf.toString('utf8', start, end));
}
