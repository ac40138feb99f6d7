import { type Attributes, SpanKind, type Tracer } from '@opentelemetry/api';
import { end } from './call-spans.js';

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
 * name; it is the `mcp.resource.uri` attribute). The server that answered is added once known.
 */
export async function spanned<T extends Told>(
  tracer: Tracer,
  name: string,
  attributes: Attributes,
  run: () => Promise<T>,
): Promise<T> {
  const span = tracer.startSpan(name, { kind: SpanKind.CLIENT, attributes });
  const outcome = await run();
  if (outcome.server) span.setAttribute('mcp_supervisor.server', outcome.server);
  end(
    span,
    outcome.ok
      ? { code: 'OK' }
      : { code: outcome.code ?? 'INTERNAL', message: outcome.message, rpcCode: outcome.rpcCode },
  );
  return outcome;
}
