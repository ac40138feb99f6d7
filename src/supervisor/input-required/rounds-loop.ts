import { isRecord } from '../../framing/is-record.js';
import { describeInputRequests, type InputRequired } from '../../framing/result-type.js';
import type { InputRetry } from '../../protocol/call-options.js';
import { type InputHandler, MAX_INPUT_ROUNDS } from './rounds.js';

/** One answer of a request that may ask for input: done (whatever the caller makes of it), or input wanted. */
export type RoundStep<T> = { done: T } | { input: InputRequired };

/** Why rounds ended without an answer: data with its code, the text for people beside it. */
export interface RoundsEnd {
  ok: false;
  code: 'INPUT_REQUIRED' | 'INPUT_ROUNDS' | 'CANCELLED';
  message: string;
  input?: InputRequired;
}

export interface RoundsSpec<T> {
  /** The request as people read it in a failure: `prompt 'a.greet'`, `resource 'fixture://x'`. */
  what: string;
  /** What the handler is told: the server that asked (when known), the request and the name or URI it is for. */
  server: string;
  method: string;
  name: string;
  handler: InputHandler | undefined;
  /** Why nobody answered when there is no handler, after what was asked; default "nothing here can answer it". */
  nobody?: string;
  signal?: AbortSignal | undefined;
  /** Sends the request, the first time without a retry, then with each round's answers and state as given. */
  send: (retry: InputRetry | undefined) => Promise<RoundStep<T>>;
}

/**
 * The MCP 2026-07-28 multi round-trip loop for any request that may answer `input_required` (`prompts/get`,
 * `resources/read`, and a gateway's `tools/call` for a client that cannot retry): `handler` answers each round and
 * the request is sent again with the answers and the server's `requestState` exactly as given, at most
 * {@link MAX_INPUT_ROUNDS} times. Without a handler, or when it fails, the end is INPUT_REQUIRED naming what was
 * asked. Never rejects unless `send` does.
 */
export async function inputRounds<T>(spec: RoundsSpec<T>): Promise<{ ok: true; value: T } | RoundsEnd> {
  let retry: InputRetry | undefined;
  for (let round = 1; ; round++) {
    const step = await spec.send(retry);
    if ('done' in step) return { ok: true, value: step.done };
    const { input } = step;
    if (spec.handler === undefined) {
      const nobody = spec.nobody ?? 'nothing here can answer it';
      const why = `${spec.what} needs input first (${describeInputRequests(input)}) and ${nobody}`;
      return { ok: false, code: 'INPUT_REQUIRED', message: why, input };
    }
    if (round >= MAX_INPUT_ROUNDS) {
      const why = `${spec.what} still asked for input after ${MAX_INPUT_ROUNDS} rounds`;
      return { ok: false, code: 'INPUT_ROUNDS', message: why, input };
    }
    let responses: Record<string, unknown> = {};
    // A state-only answer asks nothing: the spec lets the client retry at once.
    if (input.inputRequests !== undefined) {
      try {
        const answered = await spec.handler({
          server: spec.server,
          tool: spec.name,
          method: spec.method,
          name: spec.name,
          inputRequests: input.inputRequests,
          round,
          ...(spec.signal ? { signal: spec.signal } : {}),
        });
        if (!isRecord(answered)) {
          const why = `the answer to ${spec.what}'s input (${describeInputRequests(input)}) is not an object`;
          return { ok: false, code: 'INPUT_REQUIRED', message: why, input };
        }
        responses = answered;
      } catch (err) {
        const why = `${spec.what} needs input first (${describeInputRequests(input)}): ${describe(err)}`;
        return { ok: false, code: 'INPUT_REQUIRED', message: why, input };
      }
    }
    if (spec.signal?.aborted)
      return { ok: false, code: 'CANCELLED', message: `${spec.what} cancelled by the caller` };
    retry = {
      ...(input.inputRequests !== undefined ? { inputResponses: responses } : {}),
      ...(input.requestState !== undefined ? { requestState: input.requestState } : {}),
    };
  }
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
