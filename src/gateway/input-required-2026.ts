import { resultKind } from '../framing/result-type.js';
import type { CallOptions } from '../protocol/call-options.js';
import { type CallResultOutcome, callFailure } from '../protocol/call-outcome.js';
import { type SurfaceOutcome, surfaceFailure } from '../protocol/surface-outcome.js';
import type { GetPromptResult } from '../supervisor/prompts/prompts.js';
import { type ResourceReadOutcome, resourceFailure } from '../supervisor/resources/outcome.js';
import type { Fleet } from './fleet.js';
import { allowedKinds, permitted, refusedInput } from './input-gate.js';

// A 2026 client answers a server's input rounds itself, but only as far as the server may ask (docs/security.md):
// the server is told only the kinds the client declared AND its `allow:`/`roots:` permit, and an `input_required`
// asking for any other kind ends the request with the refusal a 2025 client's round gets, never reaching the client.

/** A 2026 client's `tools/call` (its options from `frontCallOptions`), gated by the tool's server's permissions. */
export async function toolCall2026(
  sup: Fleet,
  name: string,
  args: Record<string, unknown> | undefined,
  opts: CallOptions,
): Promise<CallResultOutcome> {
  // Looked up only when it matters (a client that declared something, or a round): calls are the hot path.
  let asker: string | undefined;
  const lookup = () => {
    asker ??= sup.getTool(name)?.server;
    return asker;
  };
  const declared = opts.inputCapabilities ?? {};
  const inputCapabilities =
    Object.keys(declared).length === 0 ? {} : permitted(declared, allowedKinds(sup.config.servers, lookup()));
  const out = await sup.call(name, args, { ...opts, inputCapabilities }, 'result');
  if (out.ok || out.code !== 'INPUT_REQUIRED' || !out.input || !out.passed) return out;
  const why = refusedInput(sup.config.servers, lookup(), `tool '${name}'`, out.input);
  if (why === undefined) return out;
  return callFailure('INPUT_REQUIRED', why, { tool: name, ...(asker ? { server: asker } : {}) });
}

/** A 2026 client's `prompts/get`, likewise: a barred round is the failure INPUT_REQUIRED. */
export async function prompt2026(
  sup: Fleet,
  name: string,
  args: Record<string, string> | undefined,
  opts: CallOptions,
): Promise<SurfaceOutcome<GetPromptResult>> {
  const asker = sup.listPrompts().find((p) => p.name === name)?.server;
  const inputCapabilities = permitted(opts.inputCapabilities, allowedKinds(sup.config.servers, asker));
  const out = await sup.getPrompt(name, args, {
    ...(opts.retry ? { retry: opts.retry } : {}),
    ...(opts.trace ? { trace: opts.trace } : {}),
    ...(opts.caller !== undefined ? { caller: opts.caller } : {}),
    passInputRequired: true,
    inputCapabilities,
  });
  const kind = out.ok ? resultKind(out.result) : undefined;
  if (kind?.kind !== 'input_required') return out;
  const why = refusedInput(sup.config.servers, asker, `prompt '${name}'`, kind.input);
  return why === undefined ? out : surfaceFailure('INPUT_REQUIRED', why, asker);
}

/** A 2026 client's `resources/read`: the server is known once routed, so what it is told is decided then. */
export async function read2026(sup: Fleet, uri: string, opts: CallOptions): Promise<ResourceReadOutcome> {
  const servers = sup.config.servers;
  const out = await sup.readResource(uri, {
    ...(opts.retry ? { retry: opts.retry } : {}),
    ...(opts.trace ? { trace: opts.trace } : {}),
    ...(opts.caller !== undefined ? { caller: opts.caller } : {}),
    passInputRequired: true,
    inputCapabilitiesFor: (server) => permitted(opts.inputCapabilities, allowedKinds(servers, server)),
  });
  if (out.ok || out.code !== 'INPUT_REQUIRED' || !out.input) return out;
  const why = refusedInput(servers, out.server, `resource '${uri}'`, out.input);
  return why === undefined ? out : resourceFailure('INPUT_REQUIRED', why, { server: out.server, uri });
}
