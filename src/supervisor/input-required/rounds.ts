import { isRecord } from '../../framing/is-record.js';
import { describeInputRequests, type InputRequired } from '../../framing/result-type.js';
import type { SettledCall } from '../../protocol/call-options.js';
import { type CallFailure, callFailure } from '../../protocol/call-outcome.js';

/** What a server asked before it can answer a call, as the host's `onInputRequired` is given it. */
export interface InputRequest {
  /** The server that asked, and the tool's namespaced name (for a prompt or a resource: its name or URI). */
  server: string;
  tool: string;
  /** The request that asked (`tools/call`, `prompts/get`, `resources/read`) and the name or URI it is for. */
  method: string;
  name: string;
  /** Keyed by the server's own ids; each value an `elicitation/create`, `sampling/createMessage` or `roots/list`. */
  inputRequests: Record<string, Record<string, unknown>>;
  /** 1 for the first answer of this call, counting up. */
  round: number;
  signal?: AbortSignal | undefined;
}

/** Answers a round: the `inputResponses` to retry with, keyed as the requests were. */
export type InputHandler = (
  request: InputRequest,
) => Record<string, unknown> | Promise<Record<string, unknown>>;

/** A server that asks more often than this for one call is not going to finish it. */
export const MAX_INPUT_ROUNDS = 8;

type Outcome = { ok: true } | CallFailure;

/**
 * Makes a call and, while the server answers `input_required`, has `handler` answer and retries it at the same
 * server with the answers and the server's `requestState` exactly as given (MCP 2026-07-28, multi round-trip
 * requests). Without a handler, or when `passInputRequired`, the input_required failure is the outcome. Each round
 * gets the call's whole budget: the time a person takes to answer is not the server's. Never rejects.
 */
export async function withInputRounds<T extends Outcome>(
  first: SettledCall,
  send: (call: SettledCall) => Promise<T>,
  handler: InputHandler | undefined,
): Promise<T | CallFailure> {
  let call = first;
  for (let round = 1; ; round++) {
    const out = await send(call);
    if (out.ok || out.code !== 'INPUT_REQUIRED' || out.input === undefined) return out;
    const input = out.input;
    const where = { server: first.server, tool: first.label };
    const tool = first.label ?? '';
    if (first.passInputRequired === true) return out;
    if (handler === undefined) {
      const asked = describeInputRequests(input);
      const why = `tool '${tool}' needs input first (${asked}) and the host has no onInputRequired to answer it`;
      return { ...callFailure('INPUT_REQUIRED', why, where), input };
    }
    if (round >= MAX_INPUT_ROUNDS) {
      const why = `tool '${tool}' still asked for input after ${MAX_INPUT_ROUNDS} rounds`;
      return { ...callFailure('INPUT_ROUNDS', why, where), input };
    }
    const answered = await answer(handler, input, round, first);
    if (!answered.ok) return { ...callFailure('INPUT_REQUIRED', answered.why, where), input };
    if (first.signal?.aborted)
      return callFailure('CANCELLED', `tool '${tool}' cancelled by the caller`, where);
    call = {
      ...first,
      timeoutMs: first.budgetMs ?? first.timeoutMs,
      retry: {
        ...(input.inputRequests !== undefined ? { inputResponses: answered.responses } : {}),
        ...(input.requestState !== undefined ? { requestState: input.requestState } : {}),
      },
    };
  }
}

async function answer(
  handler: InputHandler,
  input: InputRequired,
  round: number,
  call: SettledCall,
): Promise<{ ok: true; responses: Record<string, unknown> } | { ok: false; why: string }> {
  // A state-only answer asks nothing of the host: the spec lets the client retry at once.
  if (input.inputRequests === undefined) return { ok: true, responses: {} };
  const tool = call.label ?? '';
  try {
    const responses = await handler({
      server: call.server ?? '',
      tool,
      method: 'tools/call',
      name: tool,
      inputRequests: input.inputRequests,
      round,
      ...(call.signal ? { signal: call.signal } : {}),
    });
    if (isRecord(responses)) return { ok: true, responses };
    return { ok: false, why: `onInputRequired answered tool '${tool}' with something that is not an object` };
  } catch (err) {
    return { ok: false, why: `onInputRequired failed for tool '${tool}': ${String(err)}` };
  }
}
