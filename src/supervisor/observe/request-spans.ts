import { type Attributes, SpanKind, type Tracer } from '@opentelemetry/api';
import { isRecord } from '../../framing/is-record.js';
import type { TraceContext } from '../../protocol/call-options.js';
import { end } from './call-spans.js';
import { parentContext, tracedOptions } from './tracing.js';

/** What a `prompts/get` or `resources/read` outcome says of itself, whatever its own shape. */
interface Told {
  ok: boolean;
  server?: string | undefined;
  code?: string;
  message?: string;
  rpcCode?: number | undefined;
}

/**
 * One CLIENT span around a `prompts/get` or `resources/read` of the fleet, as the OpenTelemetry MCP semantic
 * conventions name them: `prompts/get {gen_ai.prompt.name}`, and `resources/read` alone (a URI is no low-cardinality
 * name; it is the `mcp.resource.uri` attribute). A child of the caller's trace context when it gave one, and the
 * parent of the server's: `run` gets the options with the span's traceparent, sent in the request's `_meta`. The
 * server that answered is added once known.
 */
export async function spanned<T extends Told, O extends { trace?: TraceContext | undefined } | undefined>(
  tracer: Tracer,
  name: string,
  attributes: Attributes,
  opts: O,
  run: (opts: O) => Promise<T>,
): Promise<T> {
  const given = isRecord(opts) && isRecord(opts.trace) ? opts.trace : undefined;
  const parent = parentContext(given);
  const span = tracer.startSpan(name, { kind: SpanKind.CLIENT, attributes }, parent);
  const traced = tracedOptions(opts, span.spanContext(), parent);
  const outcome = await run(traced);
  if (outcome.server) span.setAttribute('mcp_supervisor.server', outcome.server);
  end(
    span,
    outcome.ok
      ? { code: 'OK' }
      : { code: outcome.code ?? 'INTERNAL', message: outcome.message, rpcCode: outcome.rpcCode },
  );
  return outcome;
}
