// The W3C trace context a caller gives (Trace Context Level 1 and Baggage), checked and bounded before any of it
// reaches a server: a caller's `_meta` is untrusted input, and a header value that is not what the specs say (a
// newline in it, a forged all-zero id, an unbounded list) must not travel on under our name.

import type { TraceContext } from './call-options.js';

/** The parts of a valid `traceparent`. */
export interface Traceparent {
  traceId: string;
  parentId: string;
  /** Two lowercase hex digits, as given. */
  flags: string;
}

/** At most this many `tracestate` list-members, and this many characters in all (W3C Trace Context). */
export const TRACESTATE_MAX_MEMBERS = 32;
export const TRACESTATE_MAX_LENGTH = 512;
/** Entries longer than this go first when a tracestate must be cut to its length. */
const TRACESTATE_LONG_ENTRY = 128;
/** At most this many `baggage` list-members, and this many bytes in all (W3C Baggage). */
export const BAGGAGE_MAX_MEMBERS = 64;
export const BAGGAGE_MAX_BYTES = 8192;

const V00 = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;
// A later version: the version-00 fields first, then the end or a dash (what follows is that version's own).
const LATER = /^(?!ff)[0-9a-f]{2}-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(?:-|$)/;
const ZERO_TRACE = '0'.repeat(32);
const ZERO_PARENT = '0'.repeat(16);

/**
 * A `traceparent` as Trace Context Level 1 parses it, or undefined for one that is invalid: version `ff`, upper
 * case, wrong lengths, an all-zero trace-id or parent-id, anything around it. A later version's header is read
 * for its version-00 fields, as the spec says a parser of version 00 must.
 */
export function parseTraceparent(value: string): Traceparent | undefined {
  const m = V00.exec(value) ?? (value.startsWith('00') ? null : LATER.exec(value));
  if (!m) return undefined;
  const [, traceId, parentId, flags] = m as unknown as [string, string, string, string];
  if (traceId === ZERO_TRACE || parentId === ZERO_PARENT) return undefined;
  return { traceId, parentId, flags };
}

/** The version-00 header of valid parts. */
export function formatTraceparent(p: Traceparent): string {
  return `00-${p.traceId}-${p.parentId}-${p.flags}`;
}

const STATE_KEY = /^(?:[a-z][a-z0-9_\-*/]{0,255}|[a-z0-9][a-z0-9_\-*/]{0,240}@[a-z][a-z0-9_\-*/]{0,13})$/;
const STATE_VALUE = /^[\x20-\x2b\x2d-\x3c\x3e-\x7e]{0,255}[\x21-\x2b\x2d-\x3c\x3e-\x7e]$/;

/**
 * A `tracestate` kept to what the spec allows: invalid list-members and repeated keys dropped, at most 32
 * members, at most 512 characters (longer entries dropped first, then from the end, as the spec says);
 * undefined when nothing is left.
 */
export function cleanTracestate(value: string): string | undefined {
  const seen = new Set<string>();
  let members: string[] = [];
  // One more than kept is split off, so a huge list is never split whole; the rest is past the bound anyway.
  for (const raw of value.split(',', TRACESTATE_MAX_MEMBERS + 1).slice(0, TRACESTATE_MAX_MEMBERS)) {
    // Longer than the whole bound, it could never be kept: not even looked at.
    if (raw.length > TRACESTATE_MAX_LENGTH) continue;
    const member = trimOws(raw);
    const eq = member.indexOf('=');
    if (eq < 0) continue;
    const key = member.slice(0, eq);
    if (seen.has(key) || !STATE_KEY.test(key) || !STATE_VALUE.test(member.slice(eq + 1))) continue;
    seen.add(key);
    members.push(member);
  }
  const length = () => members.join(',').length;
  if (length() > TRACESTATE_MAX_LENGTH) {
    members = members.filter((m) => m.length <= TRACESTATE_LONG_ENTRY);
    while (length() > TRACESTATE_MAX_LENGTH) members.pop();
  }
  return members.length > 0 ? members.join(',') : undefined;
}

/** An RFC 7230 token: a baggage key or property name. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** A baggage value: printable ASCII but for space, `"`, `,`, `;` and `\` (percent-encode the rest). */
const BAGGAGE_VALUE = /^[\x21\x23-\x2b\x2d-\x3a\x3c-\x5b\x5d-\x7e]*$/;

/**
 * A `baggage` kept to what W3C Baggage allows: each list-member `key=value` with optional `;`-properties, written
 * without the optional whitespace; an invalid member dropped whole (never sent in part), at most 64 members and
 * 8192 bytes (dropped from the end); undefined when nothing is left.
 */
export function cleanBaggage(value: string): string | undefined {
  const kept: string[] = [];
  let bytes = -1;
  for (const raw of value.split(',', BAGGAGE_MAX_MEMBERS + 1).slice(0, BAGGAGE_MAX_MEMBERS)) {
    const member = raw.length > BAGGAGE_MAX_BYTES ? undefined : baggageMember(raw);
    if (member === undefined) continue;
    // Every character kept is ASCII: its length is its size in bytes.
    if (bytes + 1 + member.length > BAGGAGE_MAX_BYTES) break;
    bytes += 1 + member.length;
    kept.push(member);
  }
  return kept.length > 0 ? kept.join(',') : undefined;
}

function baggageMember(raw: string): string | undefined {
  const [first, ...properties] = raw.split(';');
  const pair = keyValue(first!);
  if (pair === undefined || !pair.includes('=')) return undefined;
  const parts = [pair];
  for (const p of properties) {
    const property = keyValue(p);
    if (property === undefined) return undefined;
    parts.push(property);
  }
  return parts.join(';');
}

/** `key = value` or a bare `key`, written without whitespace; undefined when either part is invalid. */
function keyValue(raw: string): string | undefined {
  const eq = raw.indexOf('=');
  const key = trimOws(eq < 0 ? raw : raw.slice(0, eq));
  if (!TOKEN.test(key)) return undefined;
  if (eq < 0) return key;
  const value = trimOws(raw.slice(eq + 1));
  return BAGGAGE_VALUE.test(value) ? `${key}=${value}` : undefined;
}

/**
 * Without the specs' optional whitespace (SP and HTAB) at either end. A loop, not a regex: `/[ \t]+$/` takes
 * quadratic time on a long run of spaces that does not end the string.
 */
function trimOws(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && (s[start] === ' ' || s[start] === '\t')) start++;
  while (end > start && (s[end - 1] === ' ' || s[end - 1] === '\t')) end--;
  return s.slice(start, end);
}

/**
 * What of a caller's trace context may go to a server: a valid `traceparent` (a later version's written as
 * version 00) with its cleaned `tracestate` — neither when the traceparent is invalid — and the cleaned `baggage`,
 * which stands on its own. Values that are not strings are ignored; undefined when nothing is left.
 */
export function forwardedTrace(
  trace: Readonly<Record<string, unknown>> | undefined,
): TraceContext | undefined {
  if (trace === undefined) return undefined;
  const out: TraceContext = {};
  const { traceparent, tracestate, baggage } = trace;
  const parent = typeof traceparent === 'string' ? parseTraceparent(traceparent) : undefined;
  if (parent) {
    out.traceparent = formatTraceparent(parent);
    const state = typeof tracestate === 'string' ? cleanTracestate(tracestate) : undefined;
    if (state !== undefined) out.tracestate = state;
  }
  const cleanBag = typeof baggage === 'string' ? cleanBaggage(baggage) : undefined;
  if (cleanBag !== undefined) out.baggage = cleanBag;
  return Object.keys(out).length > 0 ? out : undefined;
}
