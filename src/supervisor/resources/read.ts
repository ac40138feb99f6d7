import { isRecord } from '../../framing/is-record.js';
import { resultKind } from '../../framing/result-type.js';
import type { McpConnection } from '../../protocol/connection.js';
import {
  declaredInput,
  type HostInput,
  type InputOptions,
  promptRetryParams,
  traceParams,
} from '../input-required/host-input.js';
import { inputRounds } from '../input-required/rounds-loop.js';
import {
  type FleetResourceContents,
  type ResourceReadOutcome,
  resourceFailure,
  resourceFailureFromError,
} from './outcome.js';

/** A read routed to its server: the connection, the server's own URI, and how its URIs are shown to the caller. */
export interface ReadTarget {
  server: string;
  conn: McpConnection;
  original: string;
  /** The URI the caller used. */
  uri: string;
  timeoutMs: number;
  expose: (uri: string) => string;
}

/**
 * `resources/read` at its server. A read that answers `input_required` (MCP 2026-07-28) is answered by the
 * host's handler round by round as a tool call is, or — with `passInputRequired` — ends INPUT_REQUIRED at once
 * with the server's result as `input`, for a gateway's client to answer and retry.
 */
export async function readResourceAt(
  target: ReadTarget,
  opts: InputOptions,
  host: HostInput,
): Promise<ResourceReadOutcome> {
  const { server, conn, uri, timeoutMs } = target;
  const where = { server, uri };
  const capabilities =
    opts.passInputRequired && opts.inputCapabilitiesFor
      ? opts.inputCapabilitiesFor(server)
      : declaredInput(opts, host);
  const rounds = await inputRounds<ResourceReadOutcome>({
    what: `resource '${uri}'`,
    server,
    method: 'resources/read',
    name: uri,
    handler: opts.passInputRequired ? undefined : host.handler,
    send: async (retry) => {
      const params = {
        uri: target.original,
        ...promptRetryParams(retry ? { retry } : opts),
        ...traceParams(opts),
      };
      let raw: unknown;
      try {
        raw = await conn.request('resources/read', params, {
          timeoutMs,
          ...(capabilities ? { capabilities } : {}),
          ...(opts.caller !== undefined ? { caller: opts.caller } : {}),
        });
      } catch (err) {
        return { done: resourceFailureFromError(err, where) };
      }
      const kind = resultKind(raw);
      if (kind.kind === 'input_required') return { input: kind.input };
      if (kind.kind === 'invalid') {
        const why = `resources/read of '${uri}': ${kind.message}`;
        return { done: resourceFailure('INVALID_RESULT', why, where) };
      }
      return { done: readAnswer(raw, target) };
    },
  });
  if (rounds.ok) return rounds.value;
  const failure = resourceFailure(rounds.code, rounds.message, where);
  return rounds.input ? { ...failure, input: rounds.input } : failure;
}

/** A complete `resources/read` answer: its contents under the fleet's URIs. */
function readAnswer(raw: unknown, target: ReadTarget): ResourceReadOutcome {
  const { server, uri } = target;
  if (!isRecord(raw) || !Array.isArray(raw.contents))
    return resourceFailure('INVALID_RESULT', `'${server}' answered resources/read without contents`, {
      server,
      uri,
    });
  const contents = raw.contents
    .filter((c): c is FleetResourceContents => isRecord(c) && typeof c.uri === 'string')
    .map((c) => ({ ...c, uri: target.expose(c.uri) }));
  return { ok: true, server, contents, ...(isRecord(raw._meta) ? { _meta: raw._meta } : {}) };
}
