// The call options of MCP 2026-07-28 — trace context and input-required retries — checked like the rest: a
// JavaScript caller can pass anything, and junk is INVALID_CALL, never a malformed request on the wire.

import { isRecord } from '../../framing/is-record.js';
import type { CallOptions, InputRetry, TraceContext } from '../../protocol/call-options.js';

const TRACE_KEYS = ['traceparent', 'tracestate', 'baggage'] as const;

/**
 * Copies `trace`, `retry`, `passInputRequired`, `inputCapabilities`, `pollTaskQuestions`, `taskOwner` and `caller` into
 * `out`; returns why they are wrong, or undefined.
 */
export function checkCallExtras(o: Record<string, unknown>, out: CallOptions): string | undefined {
  const { trace, retry, passInputRequired, inputCapabilities, pollTaskQuestions, taskOwner, caller } = o;
  if (caller !== undefined) {
    if (typeof caller !== 'string') return 'caller must be a string';
    out.caller = caller;
  }
  if (taskOwner !== undefined) {
    if (typeof taskOwner !== 'string') return 'taskOwner must be a string';
    out.taskOwner = taskOwner;
  }
  if (pollTaskQuestions !== undefined) {
    if (typeof pollTaskQuestions !== 'boolean') return 'pollTaskQuestions must be a boolean';
    out.pollTaskQuestions = pollTaskQuestions;
  }
  if (inputCapabilities !== undefined) {
    if (!isRecord(inputCapabilities)) return 'inputCapabilities must be an object';
    out.inputCapabilities = inputCapabilities;
  }
  if (trace !== undefined) {
    if (!isRecord(trace)) return 'trace must be an object of traceparent, tracestate, baggage';
    const copy: TraceContext = {};
    for (const key of TRACE_KEYS) {
      const v = trace[key];
      if (v === undefined) continue;
      if (typeof v !== 'string') return `trace.${key} must be a string`;
      copy[key] = v;
    }
    out.trace = copy;
  }
  if (retry !== undefined) {
    if (!isRecord(retry)) return 'retry must be an object of inputResponses, requestState';
    const copy: InputRetry = {};
    if (retry.inputResponses !== undefined) {
      if (!isRecord(retry.inputResponses)) return 'retry.inputResponses must be an object';
      copy.inputResponses = retry.inputResponses;
    }
    if (retry.requestState !== undefined) {
      if (typeof retry.requestState !== 'string') return 'retry.requestState must be a string';
      copy.requestState = retry.requestState;
    }
    out.retry = copy;
  }
  if (passInputRequired !== undefined) {
    if (typeof passInputRequired !== 'boolean') return 'passInputRequired must be a boolean';
    out.passInputRequired = passInputRequired;
  }
  return undefined;
}
