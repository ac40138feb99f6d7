import type { ServerConfig } from '../config/types.js';
import { describeInputRequests, type InputRequired } from '../framing/result-type.js';

/** The client capability each kind of input request needs (MCP: the client must have declared it). */
export const KIND_OF: Readonly<Record<string, InputKind>> = {
  'elicitation/create': 'elicitation',
  'sampling/createMessage': 'sampling',
  'roots/list': 'roots',
};

export type InputKind = 'elicitation' | 'sampling' | 'roots';

/**
 * The kinds of input a server may put to the client, as for its own requests (docs/security.md): sampling and
 * elicitation only with `allow:`, roots only with `roots: client`. A server not known (yet) may ask nothing.
 */
export function allowedKinds(config: readonly ServerConfig[], id: string | undefined): Set<InputKind> {
  const server = config.find((s) => s.id === id);
  const out = new Set<InputKind>();
  if (server?.allow?.includes('sampling')) out.add('sampling');
  if (server?.allow?.includes('elicitation')) out.add('elicitation');
  if (server?.roots === 'client') out.add('roots');
  return out;
}

/** What a client declared it can answer, less what the server may not ask: what the server is told. */
export function permitted(
  declared: Record<string, unknown> | undefined,
  allowed: ReadonlySet<InputKind>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const kind of allowed) if (declared?.[kind]) out[kind] = declared[kind];
  return out;
}

/** The kinds an input round asks for that the server may not ask (a method of no known kind is never allowed). */
export function barredKinds(input: InputRequired, allowed: ReadonlySet<InputKind>): string[] {
  const methods = Object.values(input.inputRequests ?? {}).map((r) => String(r.method));
  return [
    ...new Set(methods.filter((m) => !allowed.has(KIND_OF[m] as InputKind)).map((m) => KIND_OF[m] ?? m)),
  ];
}

/** Why a server may not put these kinds to the client, as a 2025 client's round is refused too. */
export function barredWhy(asker: string | undefined, barred: readonly string[]): string {
  const who = asker === undefined ? 'the server' : `server '${asker}'`;
  return `${who} is not allowed to ask the client for ${barred.join(', ')} (allow:, roots: client)`;
}

/**
 * A 2026 client's `input_required` as serve may pass it on: `undefined` when the server may ask all it asked,
 * else the refusal's text (`what` as people read it: `tool 'a.x'`), as a 2025 client's round would end.
 */
export function refusedInput(
  config: readonly ServerConfig[],
  asker: string | undefined,
  what: string,
  input: InputRequired,
): string | undefined {
  const barred = barredKinds(input, allowedKinds(config, asker));
  if (barred.length === 0) return undefined;
  return `${what} needs input first (${describeInputRequests(input)}): ${barredWhy(asker, barred)}`;
}
