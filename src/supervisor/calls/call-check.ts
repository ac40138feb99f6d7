// What a tool call may be given, checked before anything waits: JavaScript callers can pass anything, and a
// call must answer INVALID_CALL for junk rather than reject, hang or reach the server.

import { isRecord } from '../../framing/is-record.js';
import type { CallOptions } from '../../protocol/call-options.js';
import { type CallFailure, callFailure } from '../../protocol/call-outcome.js';
import { checkCallExtras } from './call-check-extras.js';
/** The largest delay a Node timer honours; a longer one would fire at once (Node warns and uses 1 ms). */
export const MAX_TIMEOUT_MS = 2_147_483_647;

export type CheckedCall =
  | { ok: true; name: string; args: Record<string, unknown> | undefined; opts: CallOptions }
  | CallFailure;

/** Checks and normalises a call's name, arguments and options; `null` arguments or options mean none. */
export function checkCall(name: unknown, args: unknown, opts: unknown): CheckedCall {
  if (typeof name !== 'string') return refuse(`tool name must be a string, got ${kindOf(name)}`);
  if (args !== undefined && args !== null && !isRecord(args)) {
    return refuse(`arguments of '${name}' must be an object, got ${kindOf(args)}`);
  }
  if (opts !== undefined && opts !== null && !isRecord(opts)) {
    return refuse(`call options must be an object, got ${kindOf(opts)}`);
  }
  const o = (opts ?? {}) as Record<string, unknown>;
  const out: CallOptions = {};
  const { scopes, timeoutMs, signal, onProgress, maxTotalTimeoutMs } = o;
  if (scopes !== undefined) {
    if (!Array.isArray(scopes) || !scopes.every((s) => typeof s === 'string')) {
      return refuse(`scopes must be an array of strings, got ${kindOf(scopes)}`);
    }
    out.scopes = [...scopes];
  }
  if (timeoutMs !== undefined) {
    if (typeof timeoutMs !== 'number' || !Number.isFinite(timeoutMs) || timeoutMs <= 0) {
      return refuse(`timeoutMs must be a positive, finite number of ms, got ${describe(timeoutMs)}`);
    }
    out.timeoutMs = clampTimeout(timeoutMs);
  }
  if (signal !== undefined) {
    if (!(signal instanceof AbortSignal))
      return refuse(`signal must be an AbortSignal, got ${kindOf(signal)}`);
    out.signal = signal;
  }
  if (onProgress !== undefined) {
    if (typeof onProgress !== 'function')
      return refuse(`onProgress must be a function, got ${kindOf(onProgress)}`);
    out.onProgress = onProgress as CallOptions['onProgress'];
  }
  if (maxTotalTimeoutMs !== undefined) {
    if (
      typeof maxTotalTimeoutMs !== 'number' ||
      !Number.isFinite(maxTotalTimeoutMs) ||
      maxTotalTimeoutMs <= 0
    ) {
      return refuse(
        `maxTotalTimeoutMs must be a positive, finite number of ms, got ${describe(maxTotalTimeoutMs)}`,
      );
    }
    out.maxTotalTimeoutMs = clampTimeout(maxTotalTimeoutMs);
  }
  const { maxResultBytes } = o;
  if (maxResultBytes !== undefined) {
    if (typeof maxResultBytes !== 'number' || !Number.isSafeInteger(maxResultBytes) || maxResultBytes < 0) {
      return refuse(`maxResultBytes must be a whole number of bytes, got ${describe(maxResultBytes)}`);
    }
    out.maxResultBytes = maxResultBytes;
  }
  const extras = checkCallExtras(o, out);
  if (extras !== undefined) return refuse(extras);
  return { ok: true, name, args: (args ?? undefined) as Record<string, unknown> | undefined, opts: out };
}

/** A timeout a timer can keep: whole ms, at least 1, at most {@link MAX_TIMEOUT_MS}. */
export function clampTimeout(ms: number): number {
  return Math.min(MAX_TIMEOUT_MS, Math.max(1, Math.ceil(ms)));
}

function refuse(why: string): CheckedCall {
  return callFailure('INVALID_CALL', `invalid call: ${why}`);
}

function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') return 'an object';
  return `a ${typeof v}`;
}

function describe(v: unknown): string {
  return typeof v === 'number' ? String(v) : kindOf(v);
}
