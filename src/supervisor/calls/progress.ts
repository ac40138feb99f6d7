import { type CallOptions, MAX_TOTAL_FACTOR, type SettledCall } from '../../protocol/call-options.js';
import { clampTimeout } from './call-check.js';

/**
 * The progress part of a settled call: the callback, and what is left of the hard bound once the wait for the
 * server to be ready (which began at `deadline - timeoutMs`) is taken off. Nothing when the caller wants none.
 */
export function progressOf(
  opts: CallOptions,
  timeoutMs: number,
  deadline: number,
  now: number,
): Pick<SettledCall, 'onProgress' | 'maxTotalMs'> {
  if (!opts.onProgress) return {};
  const total = opts.maxTotalTimeoutMs ?? clampTimeout(timeoutMs * MAX_TOTAL_FACTOR);
  const started = deadline - timeoutMs;
  return { onProgress: opts.onProgress, maxTotalMs: Math.max(1, total - (now - started)) };
}
