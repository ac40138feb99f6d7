import {
  type Context,
  context,
  createTraceState,
  isSpanContextValid,
  ProxyTracerProvider,
  type SpanContext,
  type Tracer,
  type TracerProvider,
  trace,
} from '@opentelemetry/api';
import type { TraceContext } from '../../protocol/call-options.js';

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

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/**
 * The context a call's span starts in: the caller's W3C trace context when it passed one (a gateway passes its
 * client's), else the active one.
 */
export function parentContext(given: TraceContext | undefined): Context {
  const active = context.active();
  const m = given?.traceparent === undefined ? null : TRACEPARENT.exec(given.traceparent);
  if (!m) return active;
  const parent: SpanContext = {
    traceId: m[1]!,
    spanId: m[2]!,
    traceFlags: Number.parseInt(m[3]!, 16),
    isRemote: true,
  };
  if (given?.tracestate !== undefined) parent.traceState = createTraceState(given.tracestate);
  return isSpanContextValid(parent) ? trace.setSpanContext(active, parent) : active;
}

/** The `_meta` trace context for the request a span stands for: its traceparent, the caller's baggage kept. */
export function childTrace(span: SpanContext, given: TraceContext | undefined): TraceContext {
  const flags = (span.traceFlags & 0xff).toString(16).padStart(2, '0');
  const out: TraceContext = { ...given, traceparent: `00-${span.traceId}-${span.spanId}-${flags}` };
  const state = span.traceState?.serialize();
  if (state) out.tracestate = state;
  return out;
}
