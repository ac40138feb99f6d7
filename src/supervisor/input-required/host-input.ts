import { describeInputRequests, resultKind } from '../../framing/result-type.js';
import type { CallOptions } from '../../protocol/call-options.js';
import { traceMeta } from '../../protocol/request-meta.js';
import { type SurfaceOutcome, surfaceFailure } from '../../protocol/surface-outcome.js';
import { checkCallExtras } from '../calls/call-check-extras.js';
import type { InputHandler } from './rounds.js';

/**
 * What a `prompts/get` may carry for MCP 2026-07-28 input rounds (a prompt, like a tool, may answer
 * `input_required`): a retry's answers, whether such an answer goes back to the caller as it came (gateways), and
 * what the caller can answer, declared to the server on this request.
 */
export type PromptInputOptions = Pick<
  CallOptions,
  'retry' | 'passInputRequired' | 'inputCapabilities' | 'trace' | 'caller'
>;

/** The options as checked (a JavaScript caller can pass anything): the options, or why they are wrong. */
export function checkPromptInput(opts: unknown): PromptInputOptions | string {
  if (opts === undefined) return {};
  if (typeof opts !== 'object' || opts === null) return 'prompt options must be an object';
  const { retry, passInputRequired, inputCapabilities, trace, caller } = opts as Record<string, unknown>;
  const out: CallOptions = {};
  const wrong = checkCallExtras({ retry, passInputRequired, inputCapabilities, trace, caller }, out);
  return wrong ?? out;
}

/** The same options on `readResource`: a read, too, may answer `input_required` (MCP 2026-07-28). */
export interface InputOptions extends PromptInputOptions {
  /**
   * A gateway's: what its client can answer as declared to the read's server, known only once the read is routed
   * (the client's kinds less what that server may not ask). Used with `passInputRequired`, instead of
   * `inputCapabilities`.
   */
  inputCapabilitiesFor?: ((server: string) => Record<string, unknown>) | undefined;
}

/** Who answers a request's input rounds in the library, and what it declares it can answer. */
export interface HostInput {
  handler?: InputHandler | undefined;
  capabilities?: Record<string, unknown> | undefined;
}

/**
 * What a request declares the caller can answer, as for tools: a gateway's request (passing the answer on) its
 * client's kinds; a host's, its own `inputCapabilities`, else the host's when it has an `onInputRequired`.
 */
export function declaredInput(opts: InputOptions, host: HostInput): Record<string, unknown> | undefined {
  if (opts.passInputRequired) return opts.inputCapabilities;
  return opts.inputCapabilities ?? (host.handler ? host.capabilities : undefined);
}

/** The retry's `inputResponses` and `requestState`, as given, for the request's params. */
export function promptRetryParams(opts: PromptInputOptions): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (opts.retry?.inputResponses !== undefined) out.inputResponses = opts.retry.inputResponses;
  if (opts.retry?.requestState !== undefined) out.requestState = opts.retry.requestState;
  return out;
}

/** The trace context of a `prompts/get` or `resources/read`, as its params' `_meta` (every round carries it). */
export function traceParams(opts: PromptInputOptions): Record<string, unknown> {
  const meta = traceMeta(opts.trace as Record<string, unknown> | undefined);
  return meta ? { _meta: meta } : {};
}

/**
 * A server's `prompts/get` answer by its `resultType`: `input_required` is handed back as it came when the caller
 * passes it on, and is otherwise the failure INPUT_REQUIRED naming what was asked; an unknown kind is invalid.
 * Complete answers are returned unchanged.
 */
export function promptAnswer<T>(
  out: SurfaceOutcome<T>,
  name: string,
  opts: PromptInputOptions,
): SurfaceOutcome<T> {
  if (!out.ok) return out;
  const kind = resultKind(out.result);
  if (kind.kind === 'complete') return out;
  if (kind.kind === 'invalid')
    return surfaceFailure('INVALID_RESULT', `prompts/get of '${name}': ${kind.message}`, out.server);
  if (opts.passInputRequired) return out;
  const asked = describeInputRequests(kind.input);
  const failure = surfaceFailure(
    'INPUT_REQUIRED',
    `prompt '${name}' needs input first: ${asked}`,
    out.server,
  );
  return { ...failure, input: kind.input };
}
