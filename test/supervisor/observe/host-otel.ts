// What a host's OpenTelemetry setup brings that the tests need beyond the SDK: a context manager, and a tracer
// that drops spans outright as some sampling tracers do.
import { AsyncLocalStorage } from 'node:async_hooks';
import {
  type Context,
  type ContextManager,
  INVALID_SPAN_CONTEXT,
  ROOT_CONTEXT,
  type Tracer,
  type TracerProvider,
  trace,
} from '@opentelemetry/api';

/** The least context manager a host's SDK would register: the active context follows async calls. */
export class StorageContextManager implements ContextManager {
  private readonly storage = new AsyncLocalStorage<Context>();
  active(): Context {
    return this.storage.getStore() ?? ROOT_CONTEXT;
  }
  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(
    ctx: Context,
    fn: F,
    thisArg?: ThisParameterType<F>,
    ...args: A
  ): ReturnType<F> {
    return this.storage.run(ctx, () => fn.call(thisArg, ...args));
  }
  bind<T>(_ctx: Context, target: T): T {
    return target;
  }
  enable(): this {
    return this;
  }
  disable(): this {
    this.storage.disable();
    return this;
  }
}

/**
 * A provider whose tracer named `dropper` keeps one in two of the spans named with `prefix`: every second one is
 * dropped outright, a non-recording span with no valid context (not even its parent's), as a tracer that samples
 * one in two and hands out a no-op span for the rest does. Every other span and tracer is the real provider's.
 */
export class HalfDroppingProvider implements TracerProvider {
  constructor(
    private readonly real: TracerProvider,
    private readonly dropper: string,
    private readonly prefix: string,
  ) {}

  getTracer(name: string, version?: string): Tracer {
    const tracer = this.real.getTracer(name, version);
    if (name !== this.dropper) return tracer;
    let seen = 0;
    const startSpan: Tracer['startSpan'] = (spanName, options, ctx) =>
      spanName.startsWith(this.prefix) && seen++ % 2 === 1
        ? trace.wrapSpanContext(INVALID_SPAN_CONTEXT)
        : tracer.startSpan(spanName, options, ctx);
    return { startSpan, startActiveSpan: tracer.startActiveSpan.bind(tracer) };
  }
}
