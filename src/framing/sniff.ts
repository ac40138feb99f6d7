import { asBuffer, isJsonSpace } from './bytes.js';
import type { JsonRpcId } from './json-rpc.js';

/** How many leading and trailing bytes of a line are kept for sniffing. */
export const SNIFF_HEAD_BYTES = 1024;
export const SNIFF_TAIL_BYTES = 256;

/** What the first bytes of a line say about it, without parsing the whole line. */
export interface LineSniff {
  /** `result` / `error`: a response; `request`: has a method or params; undefined: could not tell. */
  kind?: 'result' | 'error' | 'request';
  id?: JsonRpcId;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const LBRACE = 0x7b;
const RBRACE = 0x7d;
const LBRACKET = 0x5b;
const RBRACKET = 0x5d;

function skipSpace(b: Uint8Array, i: number): number {
  while (i < b.length && isJsonSpace(b[i])) i++;
  return i;
}

/** Index just past the string starting at `i` (a quote), or -1 when it runs past the window. */
function stringEnd(b: Uint8Array, i: number): number {
  for (let j = i + 1; j < b.length; j++) {
    const c = b[j];
    if (c === BACKSLASH) j++;
    else if (c === QUOTE) return j + 1;
  }
  return -1;
}

/** Index just past the JSON value starting at `i`, or -1 when it is cut off by the window's end. */
function valueEnd(b: Uint8Array, i: number): number {
  const c = b[i];
  if (c === undefined) return -1;
  if (c === QUOTE) return stringEnd(b, i);
  if (c === LBRACE || c === LBRACKET) {
    let depth = 0;
    for (let j = i; j < b.length; j++) {
      const d = b[j];
      if (d === QUOTE) {
        j = stringEnd(b, j) - 1;
        if (j < 0) return -1;
      } else if (d === LBRACE || d === LBRACKET) depth++;
      else if (d === RBRACE || d === RBRACKET) {
        depth--;
        if (depth === 0) return j + 1;
      }
    }
    return -1;
  }
  // number or literal: it must be followed by a delimiter inside the window, or it may be cut short
  let j = i;
  while (j < b.length && isTokenByte(b[j]!)) j++;
  return j < b.length && j > i ? j : -1;
}

/** Bytes that can appear in a JSON number or literal (`true`, `false`, `null`). */
function isTokenByte(c: number): boolean {
  return (
    (c >= 0x30 && c <= 0x39) ||
    (c >= 0x61 && c <= 0x7a) ||
    c === 0x2b ||
    c === 0x2d ||
    c === 0x2e ||
    c === 0x45
  );
}

function parseToken(b: Uint8Array, start: number, end: number): unknown {
  try {
    return JSON.parse(asBuffer(b).toString('utf8', start, end));
  } catch {
    return undefined;
  }
}

function asId(v: unknown): JsonRpcId | undefined {
  return typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)) ? v : undefined;
}

/** Reads the top-level keys of a JSON object from its first bytes: which kind of message, and its id if seen. */
export function sniffHead(b: Uint8Array): LineSniff {
  const out: LineSniff = {};
  let i = skipSpace(b, 0);
  if (b[i] !== LBRACE) return out;
  i++;
  for (;;) {
    i = skipSpace(b, i);
    if (b[i] !== QUOTE) return out;
    const keyEnd = stringEnd(b, i);
    if (keyEnd < 0) return out;
    const key = parseToken(b, i, keyEnd);
    i = skipSpace(b, keyEnd);
    if (b[i] !== COLON) return out;
    i = skipSpace(b, i + 1);
    if (out.kind === undefined) {
      if (key === 'result' || key === 'error') out.kind = key;
      else if (key === 'method' || key === 'params') out.kind = 'request';
    }
    const end = valueEnd(b, i);
    if (end < 0) return out;
    if (key === 'id') {
      const id = asId(parseToken(b, i, end));
      if (id !== undefined) out.id = id;
    }
    i = skipSpace(b, end);
    if (b[i] !== COMMA) return out;
    i++;
  }
}

const ID_KEY = Buffer.from('"id"');

/** Finds a top-level `"id": <value>` that closes the object (`…,"id":7}`), the order the MCP SDK writes. */
export function sniffTail(b: Uint8Array): JsonRpcId | undefined {
  const buf = asBuffer(b);
  let close = b.length;
  while (close > 0 && isJsonSpace(b[close - 1])) close--;
  close--;
  if (close < 0 || b[close] !== RBRACE) return undefined;
  for (let k = buf.lastIndexOf(ID_KEY, close); k >= 0; k = k > 0 ? buf.lastIndexOf(ID_KEY, k - 1) : -1) {
    let p = k;
    while (p > 0 && isJsonSpace(b[p - 1])) p--;
    if (p === 0 || (b[p - 1] !== COMMA && b[p - 1] !== LBRACE)) continue;
    let i = skipSpace(b, k + ID_KEY.length);
    if (b[i] !== COLON) continue;
    i = skipSpace(b, i + 1);
    if (b[i] === LBRACE || b[i] === LBRACKET) continue;
    const end = valueEnd(b, i);
    if (end < 0 || skipSpace(b, end) !== close) continue;
    return asId(parseToken(b, i, end));
  }
  return undefined;
}

/** Sniffs a line from its first bytes, and from its last bytes for an id written after a large result. */
export function sniffLine(head: Uint8Array, tail?: Uint8Array): LineSniff {
  const sniff = sniffHead(head);
  if (sniff.id === undefined && (sniff.kind === 'result' || sniff.kind === 'error') && tail !== undefined) {
    const id = sniffTail(tail);
    if (id !== undefined) sniff.id = id;
  }
  return sniff;
}

/** The id of a response (`result` or `error`) sniffed from a line's first (and optionally last) bytes. */
export function sniffResponseId(head: Uint8Array, tail?: Uint8Array): JsonRpcId | undefined {
  const sniff = sniffLine(head, tail);
  return sniff.kind === 'result' || sniff.kind === 'error' ? sniff.id : undefined;
}
