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
import { isRecord } from '../../framing/is-record.js';
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
 * The `_meta` trace context for the request a span stands for: the span's own traceparent and tracestate, the
 * caller's baggage kept. A tracer may hand back a span with no valid context (one that drops what it does not
 * sample, or while tracing is suppressed): then the context the span was started in goes instead, so a valid
 * parent — the caller's or the active span's — reaches the server whatever the tracer kept. Undefined when
 * neither is valid.
 */
export function childTrace(
  span: SpanContext,
  parent: Context,
  given: TraceContext | undefined,
): TraceContext | undefined {
  const sent = [span, trace.getSpanContext(parent)].find(
    (c): c is SpanContext => c !== undefined && parseTraceparent(traceparentOf(c)) !== undefined,
  );
  if (!sent) return undefined;
  const out: TraceContext = { traceparent: traceparentOf(sent) };
  const state = sent.traceState?.serialize();
  if (state) out.tracestate = state;
  if (typeof given?.baggage === 'string') out.baggage = given.baggage;
  return out;
}

function traceparentOf(c: SpanContext): string {
  const flags = (c.traceFlags & 0xff).toString(16).padStart(2, '0');
  return `00-${c.traceId}-${c.spanId}-${flags}`;
}

/**
 * The options a spanned request goes on with: its trace context from {@link childTrace}. Options of the wrong
 * shape go on as they came, for the request's own check to name (INVALID_CALL); `null` options are none.
 */
export function tracedOptions<O extends { trace?: TraceContext | undefined } | undefined | null>(
  opts: O,
  span: SpanContext,
  parent: Context,
): O {
  const none = opts === undefined || opts === null;
  if (!none && !(isRecord(opts) && (opts.trace === undefined || isRecord(opts.trace)))) return opts;
  const given = none ? undefined : opts.trace;
  const sent = childTrace(span, parent, given);
  return sent ? ({ ...(none ? {} : opts), trace: sent } as O) : opts;
}
