import {
  CallToolRequestSchema,
  GetPromptRequestSchema,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { isRecord } from '../framing/is-record.js';
import type { CallOptions } from '../protocol/call-options.js';
import {
  CLIENT_CAPABILITIES_META as CAPABILITIES_KEY,
  PROTOCOL_VERSION_META as VERSION_KEY,
} from '../protocol/request-meta.js';
import type { CacheHint } from '../supervisor/runtime/list-hints.js';

const TRACE_KEYS = ['traceparent', 'tracestate', 'baggage'] as const;
/** What a client can answer when a server asks for input. */
const INPUT_KINDS = ['elicitation', 'sampling', 'roots'] as const;

/**
 * `tools/call` with every param kept: the SDK's schema drops keys it does not know, and a 2026 retry's
 * `inputResponses` and `requestState` must reach the server as the client sent them.
 */
export const CallToolRetrySchema = CallToolRequestSchema.extend({
  params: CallToolRequestSchema.shape.params.loose(),
});

/** `prompts/get` with every param kept, for the same reason: a prompt may answer `input_required` too. */
export const GetPromptRetrySchema = GetPromptRequestSchema.extend({
  params: GetPromptRequestSchema.shape.params.loose(),
});

/** `resources/read` with every param kept: a read may answer `input_required` too, and its retry must pass whole. */
export const ReadResourceRetrySchema = ReadResourceRequestSchema.extend({
  params: ReadResourceRequestSchema.shape.params.loose(),
});

/** Whether a request comes from a 2026 client (its `_meta` names the protocol version); else it is 2025 traffic. */
export function is2026Request(params: Record<string, unknown> | undefined): boolean {
  return isRecord(params?._meta) && params._meta[VERSION_KEY] !== undefined;
}

/**
 * What a front client's `tools/call` asks of the fleet beyond the name and arguments: its trace context, passed
 * to the server's request; and for a 2026 client, its retry of an `input_required` round (sent on as given), the
 * kinds of input it declared it can answer, and that an `input_required` answer comes back to it as it came (a
 * 2025 client cannot retry, so for it the call fails `INPUT_REQUIRED` instead).
 */
export function frontCallOptions(params: Record<string, unknown>): CallOptions {
  const meta = isRecord(params._meta) ? params._meta : {};
  const out: CallOptions = {};
  const trace = Object.fromEntries(
    TRACE_KEYS.flatMap((k) => (typeof meta[k] === 'string' ? [[k, meta[k]]] : [])),
  );
  if (Object.keys(trace).length > 0) out.trace = trace;
  if (meta[VERSION_KEY] === undefined) return out;
  out.passInputRequired = true;
  const caps = isRecord(meta[CAPABILITIES_KEY]) ? meta[CAPABILITIES_KEY] : {};
  const declared = Object.fromEntries(INPUT_KINDS.flatMap((k) => (isRecord(caps[k]) ? [[k, caps[k]]] : [])));
  // Declared even when empty: the server is then told this client can answer no input, whatever serve could.
  out.inputCapabilities = declared;
  const retry: NonNullable<CallOptions['retry']> = {};
  if (isRecord(params.inputResponses)) retry.inputResponses = params.inputResponses;
  if (typeof params.requestState === 'string') retry.requestState = params.requestState;
  if (Object.keys(retry).length > 0) out.retry = retry;
  return out;
}

/**
 * The fleet's cache hint on a 2026 client's `tools/list` (the shortest ttl of the servers, `private` if any is);
 * nothing for a 2025 client, whose results have no such fields. Without a hint the 2026 answer says "do not keep".
 */
export function fleetCacheHint(
  params: Record<string, unknown> | undefined,
  hint: CacheHint | undefined,
): Partial<CacheHint> {
  const meta = isRecord(params?._meta) ? params._meta : {};
  if (meta[VERSION_KEY] === undefined || !hint) return {};
  return { ttlMs: hint.ttlMs, cacheScope: hint.cacheScope };
}
