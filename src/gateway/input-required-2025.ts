import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { isRecord } from '../framing/is-record.js';
import { resultKind } from '../framing/result-type.js';
import type { CallOptions, InputRetry, TraceContext } from '../protocol/call-options.js';
import { type CallResultOutcome, callFailure } from '../protocol/call-outcome.js';
import { FORWARD_TIMEOUT_MS } from '../protocol/server-requests.js';
import { type SurfaceOutcome, surfaceFailure } from '../protocol/surface-outcome.js';
import type { InputHandler } from '../supervisor/input-required/rounds.js';
import { inputRounds, type RoundStep, type RoundsEnd } from '../supervisor/input-required/rounds-loop.js';
import type { GetPromptResult } from '../supervisor/prompts/prompts.js';
import { type ResourceReadOutcome, resourceFailure } from '../supervisor/resources/outcome.js';
import type { Fleet } from './fleet.js';
import { frontCallOptions } from './front-request.js';
import { allowedKinds, barredWhy, type InputKind, KIND_OF } from './input-gate.js';

type Kind = InputKind;

/**
 * What a 2025 front client declared it can answer at its `initialize`, less what the server may not ask: declared
 * to the server on each of the client's requests.
 */
export function frontInputCapabilities(server: Server, allowed: Set<Kind>): Record<string, unknown> {
  const caps = server.getClientCapabilities() ?? {};
  const out: Record<string, unknown> = {};
  for (const kind of allowed) if (caps[kind]) out[kind] = caps[kind];
  return out;
}

/**
 * Answers a round through a 2025 front client, which cannot take an `input_required` result: each input request
 * goes to it as the real 2025 request (`elicitation/create`, `sampling/createMessage`, `roots/list`), on the
 * stream of the client's own request, one at a time (a person may be answering). A kind the client did not
 * declare fails the round, naming what was asked; so does the client's error.
 */
export function frontAnswerer(
  server: Server,
  relatedRequestId: string | number | undefined,
  allowed: (asker: string | undefined) => Set<Kind>,
  asker: () => string | undefined,
): InputHandler {
  return async (request) => {
    const caps = server.getClientCapabilities() ?? {};
    const entries = Object.entries(request.inputRequests);
    const kinds = (keep: (kind: Kind | undefined) => boolean) => [
      ...new Set(entries.flatMap(([, r]) => (keep(KIND_OF[String(r.method)]) ? [kindOf(r.method)] : []))),
    ];
    const may = allowed(asker());
    const barred = kinds((k) => k === undefined || !may.has(k));
    if (barred.length > 0) throw new Error(barredWhy(asker(), barred));
    const undeclared = kinds((k) => k !== undefined && !caps[k]);
    if (undeclared.length > 0)
      throw new Error(`the client declared no ${undeclared.join(', ')} capability to answer it`);
    const out: Record<string, unknown> = {};
    for (const [key, r] of entries) {
      const params = isRecord(r.params) ? r.params : undefined;
      out[key] = await server.request(
        { method: String(r.method), ...(params ? { params } : {}) } as never,
        ResultSchema,
        {
          ...(request.signal ? { signal: request.signal } : {}),
          timeout: FORWARD_TIMEOUT_MS,
          ...(relatedRequestId !== undefined ? { relatedRequestId } : {}),
        },
      );
    }
    return out;
  };
}

/** A 2025 client's request in progress: its session's server, its request id and its cancellation. */
export interface FrontRequest {
  server: Server;
  requestId: string | number | undefined;
  signal?: AbortSignal | undefined;
  /** The client's trace context (its request's `_meta`), passed to the server's request. */
  trace?: TraceContext | undefined;
  /** Who the request is made for (`CallOptions.caller`), when the client has a name. */
  caller?: string | undefined;
}

/** A 2025 client's request as the rounds need it: its session's server, its id, its cancellation and trace. */
export function frontRequest(
  server: Server,
  extra: { requestId: string | number; signal: AbortSignal },
  params: Record<string, unknown>,
): FrontRequest {
  const { trace } = frontCallOptions(params);
  return { server, requestId: extra.requestId, signal: extra.signal, ...(trace ? { trace } : {}) };
}

/** Who asked: known by name up front for tools and prompts, set from each answer for reads. */
interface Asker {
  id: string | undefined;
}

/**
 * Runs the input rounds of one request of a 2025 front client: the fleet passes each `input_required` back
 * (`passInputRequired`, declaring what the client declared), the client answers through {@link frontAnswerer},
 * and the request is sent again with the answers and the server's `requestState` as given — at most 8 rounds.
 */
export function frontRounds<T>(
  sup: Fleet,
  front: FrontRequest,
  spec: { what: string; method: string; name: string; asker: Asker },
  send: (opts: CallOptions & { retry?: InputRetry }) => Promise<RoundStep<T>>,
): Promise<{ ok: true; value: T } | RoundsEnd> {
  const allowed = (id: string | undefined) => allowedKinds(sup.config.servers, id);
  const { asker } = spec;
  return inputRounds<T>({
    what: spec.what,
    server: asker.id ?? '',
    method: spec.method,
    name: spec.name,
    handler: frontAnswerer(front.server, front.requestId, allowed, () => asker.id),
    signal: front.signal,
    // Declared afresh each round: a read's server is known only once it answered. Until then all the client
    // declared is (the server still may not ask for what it is not allowed: the answerer refuses that).
    send: (retry) => {
      const kinds =
        asker.id === undefined ? new Set<Kind>(['elicitation', 'sampling', 'roots']) : allowed(asker.id);
      const inputCapabilities = frontInputCapabilities(front.server, kinds);
      return send({
        passInputRequired: true,
        inputCapabilities,
        ...(retry ? { retry } : {}),
        ...(front.trace ? { trace: front.trace } : {}),
        ...(front.caller !== undefined ? { caller: front.caller } : {}),
      });
    },
  });
}

/**
 * A 2025 client's `tools/call`, its input rounds answered by the client itself. A round that cannot be answered
 * ends the call as INPUT_REQUIRED (or INPUT_ROUNDS) naming what was asked.
 */
export async function frontToolCall(
  sup: Fleet,
  front: FrontRequest,
  name: string,
  args: Record<string, unknown> | undefined,
  opts: CallOptions,
): Promise<CallResultOutcome> {
  const asker = { id: sup.getTool(name)?.server };
  const spec = { what: `tool '${name}'`, method: 'tools/call', name, asker };
  const rounds = await frontRounds<CallResultOutcome>(sup, front, spec, async (o) => {
    const out = await sup.call(name, args, { ...opts, ...o }, 'result');
    return !out.ok && out.code === 'INPUT_REQUIRED' && out.input && out.passed
      ? { input: out.input }
      : { done: out };
  });
  if (rounds.ok) return rounds.value;
  return callFailure(rounds.code, rounds.message, { tool: name });
}

/** A 2025 client's `resources/read`, its input rounds answered by the client; an unanswered round is the failure. */
export async function frontRead(sup: Fleet, front: FrontRequest, uri: string): Promise<ResourceReadOutcome> {
  const asker: Asker = { id: undefined };
  const spec = { what: `resource '${uri}'`, method: 'resources/read', name: uri, asker };
  const rounds = await frontRounds<ResourceReadOutcome>(sup, front, spec, async (o) => {
    // The read's server is known once routed: it is told only what it may ask of what the client declared.
    const servers = sup.config.servers;
    const inputCapabilitiesFor = (s: string) =>
      frontInputCapabilities(front.server, allowedKinds(servers, s));
    const out = await sup.readResource(uri, { ...o, inputCapabilitiesFor });
    asker.id = out.server;
    return !out.ok && out.code === 'INPUT_REQUIRED' && out.input ? { input: out.input } : { done: out };
  });
  if (rounds.ok) return rounds.value;
  const failure = resourceFailure(rounds.code, rounds.message, { uri });
  return rounds.input ? { ...failure, input: rounds.input } : failure;
}

/** A 2025 client's `prompts/get`, likewise. */
export async function frontPrompt(
  sup: Fleet,
  front: FrontRequest,
  name: string,
  args: Record<string, string> | undefined,
): Promise<SurfaceOutcome<GetPromptResult>> {
  const asker = { id: sup.listPrompts().find((p) => p.name === name)?.server };
  const spec = { what: `prompt '${name}'`, method: 'prompts/get', name, asker };
  const rounds = await frontRounds<SurfaceOutcome<GetPromptResult>>(sup, front, spec, async (o) => {
    const out = await sup.getPrompt(name, args, o);
    const kind = out.ok ? resultKind(out.result) : undefined;
    return kind?.kind === 'input_required' ? { input: kind.input } : { done: out };
  });
  if (rounds.ok) return rounds.value;
  return { ...surfaceFailure(rounds.code, rounds.message), ...(rounds.input ? { input: rounds.input } : {}) };
}

function kindOf(method: unknown): string {
  return KIND_OF[String(method)] ?? String(method);
}
