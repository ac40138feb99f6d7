import { ROOT_CONTEXT, type Span, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { ServerState, SupervisorEvent } from '../types.js';
import type { Tracing } from './tracing.js';

/** The states a process (or session) of a server lives through; leaving them ends its run span. */
const RUNNING = new Set<ServerState>(['spawning', 'approving', 'handshaking', 'ready', 'wedged', 'stopping']);
/** Exit reasons that are not failures: we asked for them. */
const REQUESTED = new Set(['stopped', 'restart', 'sibling_restart', 'escalated', 'reload']);

/**
 * A `server.run` span per process (or session) of each server, from `spawning` until it leaves the running
 * states, with a span event per transition and its exit as attributes; a transition outside a run (backoff →
 * failed) is a `server.state` span of its own. Each run is a trace of its own: it belongs to no call.
 */
export class LifecycleSpans {
  private readonly open = new Map<string, Span>();

  constructor(private readonly tracing: Tracing) {}

  on(e: SupervisorEvent): void {
    if (e.type === 'exit') this.onExit(e);
    if (e.type !== 'state') return;
    let span = this.open.get(e.server);
    if (!span && !RUNNING.has(e.to)) {
      const tracer = this.tracing.tracer();
      tracer
        ?.startSpan(
          'server.state',
          { kind: SpanKind.INTERNAL, startTime: e.at, attributes: attrs(e) },
          ROOT_CONTEXT,
        )
        .end(e.at);
      return;
    }
    if (!span) {
      const tracer = this.tracing.tracer();
      if (!tracer) return;
      span = tracer.startSpan(
        'server.run',
        { kind: SpanKind.INTERNAL, startTime: e.at, attributes: { 'mcp_supervisor.server': e.server } },
        ROOT_CONTEXT,
      );
      this.open.set(e.server, span);
    }
    span.addEvent(`state ${e.to}`, attrs(e), e.at);
    if (e.to === 'ready' && e.protocolVersion) span.setAttribute('mcp.protocol.version', e.protocolVersion);
    if (!RUNNING.has(e.to)) {
      this.open.delete(e.server);
      span.end(e.at);
    }
  }

  /** Ends every run still open (the supervisor stopped). */
  close(): void {
    for (const span of this.open.values()) span.end();
    this.open.clear();
  }

  private onExit(e: Extract<SupervisorEvent, { type: 'exit' }>): void {
    const span = this.open.get(e.server);
    if (!span) return;
    span.setAttribute('mcp_supervisor.exit.reason', e.reason);
    if (e.code !== null) span.setAttribute('mcp_supervisor.exit.code', e.code);
    if (e.signal !== null) span.setAttribute('mcp_supervisor.exit.signal', e.signal);
    if (!REQUESTED.has(e.reason))
      span.setStatus({ code: SpanStatusCode.ERROR, message: `exited: ${e.reason}` });
  }
}

function attrs(e: Extract<SupervisorEvent, { type: 'state' }>) {
  return {
    'mcp_supervisor.server': e.server,
    'mcp_supervisor.state.from': e.from ?? 'none',
    'mcp_supervisor.state.to': e.to,
  };
}
