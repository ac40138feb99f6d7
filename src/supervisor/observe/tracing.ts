import {
  type Context,
  context,
  createTraceState,
  ProxyTracerProvider,
  type SpanContext,
  type Tracer,
  type TracerProvider,
  trace,
} from '@opentelemetry/api';
import type { TraceContext } from '../../protocol/call-options.js';
import { cleanTracestate, parseTraceparent } from '../../protocol/trace-context.js';

/** The API's own no-op provider: what the global proxy hands out while no SDK is registered. */
const NOOP_PROVIDER = new ProxyTracerProvider().getDelegate();
export const TRACER_NAME = 'mcp-supervisor';

/**
 * The tracer of whatever provider the host registered with `@opentelemetry/api`, or undefined while none is, so
 * that a host without an SDK pays one global look-up per call and allocates nothing.
 */
export class Tracing {
  private provider: TracerProvider | undefined;
  private current: Tracer | undefined;

  tracer(): Tracer | undefined {
    const global = trace.getTracerProvider();
    const provider = global instanceof ProxyTracerProvider ? global.getDelegate() : global;
    if (provider === NOOP_PROVIDER) return undefined;
    // A host may register another provider later (or unregister it): follow it rather than keep the old one.
    if (provider !== this.provider) {
      this.provider = provider;
      this.current = provider.getTracer(TRACER_NAME);
    }
    return this.current;
  }
}

/**
 * The context a call's span starts in: the caller's W3C trace context when it passed a valid one (a gateway
 * passes its client's), else the active one. An invalid `traceparent` is no parent, and its `tracestate` is not
 * read (W3C Trace Context).
 */
export function parentContext(given: TraceContext | undefined): Context {
  const active = context.active();
  const parsed = typeof given?.traceparent === 'string' ? parseTraceparent(given.traceparent) : undefined;
  if (!parsed) return active;
  const parent: SpanContext = {
    traceId: parsed.traceId,
    spanId: parsed.parentId,
    traceFlags: Number.parseInt(parsed.flags, 16),
    isRemote: true,
  };
  const state = typeof given?.tracestate === 'string' ? cleanTracestate(given.tracestate) : undefined;
  if (state !== undefined) parent.traceState = createTraceState(state);
  return trace.setSpanContext(active, parent);
}

/**
 * The `_meta` trace context for the request a span stands for: the span's own traceparent and tracestate (never
 * the caller's, which belongs to the parent), the caller's baggage kept.
 */
export function childTrace(span: SpanContext, given: TraceContext | undefined): TraceContext {
  const flags = (span.traceFlags & 0xff).toString(16).padStart(2, '0');
  const out: TraceContext = { traceparent: `00-${span.traceId}-${span.spanId}-${flags}` };
  const state = span.traceState?.serialize();
  if (state) out.tracestate = state;
  if (typeof given?.baggage === 'string') out.baggage = given.baggage;
  return out;
}
