import { type Attributes, type Span, SpanKind, SpanStatusCode, type Tracer } from '@opentelemetry/api';
import type { CallOptions } from '../../protocol/call-options.js';
import type { CallOutcome, CallResultOutcome } from '../../protocol/call-outcome.js';
import type { FleetTools } from '../calls/tool-table.js';
import type { Connections } from '../runtime/connections.js';
import { parentContext, tracedOptions } from './tracing.js';

/** Who a call goes to, as far as the fleet knows when it starts. */
export interface CallTarget {
  server: string;
  /** The tool's name at its server (the exposed name may be namespaced). */
  tool: string;
  protocolVersion?: string | undefined;
  /** `pipe` for a child's stdio, `tcp` for a `url:` server (the semantic conventions' `network.transport`). */
  transport: 'pipe' | 'tcp';
}

/** The target of a call by its exposed name, from the live table and the server's connection. */
export function callTarget(
  tools: FleetTools,
  connections: Connections,
  name: string,
): CallTarget | undefined {
  const tool = tools.table.get(name);
  if (!tool) return undefined;
  const conn = connections.get(tool.server);
  return {
    server: tool.server,
    tool: tool.tool,
    protocolVersion: conn?.serverInit?.protocolVersion,
    transport: conn?.link.kind === 'remote' ? 'tcp' : 'pipe',
  };
}

/** What a finished call says of itself, for its span. */
export interface Ending {
  code: string;
  message?: string | undefined;
  rpcCode?: number | undefined;
}

/**
 * One CLIENT span per tool call, named and attributed as the OpenTelemetry MCP semantic conventions say
 * (`tools/call {gen_ai.tool.name}`), its traceparent sent to the server in the request's `_meta`.
 */
export class CallSpans {
  constructor(private readonly targetOf: (name: string) => CallTarget | undefined) {}

  /** One call of any decoding, its span ended with the outcome's code. */
  async call<O extends CallOutcome | CallResultOutcome>(
    tracer: Tracer,
    name: string,
    opts: CallOptions | undefined,
    run: (opts: CallOptions | undefined) => Promise<O>,
  ): Promise<O> {
    const { span, traced } = this.start(tracer, name, opts);
    const outcome = await run(traced);
    end(span, outcome.ok ? { code: 'OK' } : outcome);
    return outcome;
  }

  private start(tracer: Tracer, name: string, opts: CallOptions | undefined) {
    const target = this.targetOf(name);
    const tool = target?.tool ?? name;
    const attributes: Attributes = {
      'mcp.method.name': 'tools/call',
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': tool,
      'mcp_supervisor.tool': name,
    };
    if (target) {
      attributes['mcp_supervisor.server'] = target.server;
      attributes['network.transport'] = target.transport;
      if (target.protocolVersion) attributes['mcp.protocol.version'] = target.protocolVersion;
    }
    const parent = parentContext(opts?.trace);
    const span = tracer.startSpan(`tools/call ${tool}`, { kind: SpanKind.CLIENT, attributes }, parent);
    return { span, traced: tracedOptions(opts, span.spanContext(), parent) };
  }
}

/** Ends a call's span with its outcome: the supervisor's code, and for a failure the conventions' error type. */
export function end(span: Span, ending: Ending): void {
  span.setAttribute('mcp_supervisor.outcome', ending.code);
  if (ending.code !== 'OK') {
    // The conventions: `tool_error` for a result marked isError, the JSON-RPC code for an error answer.
    const type =
      ending.code === 'TOOL_ERROR'
        ? 'tool_error'
        : ending.rpcCode !== undefined
          ? String(ending.rpcCode)
          : ending.code;
    span.setAttribute('error.type', type);
    if (ending.rpcCode !== undefined) span.setAttribute('rpc.response.status_code', String(ending.rpcCode));
    span.setStatus({ code: SpanStatusCode.ERROR, message: ending.message ?? ending.code });
  }
  span.end();
}
