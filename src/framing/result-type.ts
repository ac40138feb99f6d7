import { isRecord } from './is-record.js';

/**
 * An InputRequiredResult (MCP 2026-07-28, multi round-trip requests): the server needs the client to answer
 * `inputRequests` and retry the original request with `inputResponses` and `requestState` exactly as given.
 */
export interface InputRequired {
  resultType: 'input_required';
  inputRequests?: Record<string, Record<string, unknown>>;
  requestState?: string;
}

/** What a result's `resultType` makes of it; an absent one means complete (servers of the 2025 era send none). */
export type ResultKind =
  | { kind: 'complete' }
  | { kind: 'input_required'; input: InputRequired }
  | { kind: 'invalid'; message: string };

/** Reads `resultType` and, for `input_required`, checks the shape the spec gives it. */
export function resultKind(result: unknown): ResultKind {
  if (!isRecord(result) || !('resultType' in result)) return { kind: 'complete' };
  const type = result.resultType;
  if (type === 'complete') return { kind: 'complete' };
  if (type !== 'input_required') {
    // The spec: a resultType the client does not recognise is invalid, never guessed at.
    return { kind: 'invalid', message: `unrecognised resultType ${JSON.stringify(type)}` };
  }
  const { inputRequests, requestState } = result;
  if (inputRequests !== undefined && !isRecord(inputRequests))
    return { kind: 'invalid', message: 'input_required with an inputRequests that is not an object' };
  if (requestState !== undefined && typeof requestState !== 'string')
    return { kind: 'invalid', message: 'input_required with a requestState that is not a string' };
  const requests = inputRequests as Record<string, unknown> | undefined;
  for (const [key, value] of Object.entries(requests ?? {})) {
    if (!isRecord(value) || typeof value.method !== 'string')
      return { kind: 'invalid', message: `input request ${JSON.stringify(key)} names no method` };
  }
  const hasRequests = requests !== undefined && Object.keys(requests).length > 0;
  if (!hasRequests && requestState === undefined)
    return { kind: 'invalid', message: 'input_required with neither inputRequests nor requestState' };
  const input: InputRequired = { resultType: 'input_required' };
  if (hasRequests) input.inputRequests = requests as Record<string, Record<string, unknown>>;
  if (requestState !== undefined) input.requestState = requestState;
  return { kind: 'input_required', input };
}

/** What was asked, for people: each request's key and method, e.g. `confirm (elicitation/create)`. */
export function describeInputRequests(input: InputRequired): string {
  const asked = Object.entries(input.inputRequests ?? {}).map(([k, r]) => `${k} (${String(r.method)})`);
  return asked.length > 0 ? asked.join(', ') : 'a retry with its requestState only';
}
