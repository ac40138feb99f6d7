import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { context, trace } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import type { CallOptions } from '../../../src/protocol/call-options.js';
import { TRACER_NAME } from '../../../src/supervisor/observe/tracing.js';
import type { Supervisor } from '../../../src/supervisor/supervisor.js';
import { fixtureServer, fleetConfig, fleets } from '../fleet.js';
import { tempDir } from '../helpers.js';
import { HalfDroppingProvider, StorageContextManager } from './host-otel.js';

// What of a caller's W3C trace context reaches a server: the fixture's request_meta tool answers the `_meta` of
// the request it got, and its --log file holds every request.
const fleet = fleets();
const dirs: Array<{ cleanup(): void }> = [];
let provider: BasicTracerProvider | undefined;
let exporter = new InMemorySpanExporter();

afterEach(async () => {
  await fleet.reap();
  trace.disable();
  context.disable();
  await provider?.shutdown();
  provider = undefined;
  for (const d of dirs.splice(0)) d.cleanup();
});

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_ID = '00f067aa0ba902b7';
const VALID = `00-${TRACE_ID}-${PARENT_ID}-01`;
const INVALID = [
  `${VALID}\n`,
  `${VALID}\r\nx-injected: 1`,
  `00-${TRACE_ID.toUpperCase()}-${PARENT_ID}-01`,
  `00-${'0'.repeat(32)}-${PARENT_ID}-01`,
  `00-${TRACE_ID}-${'0'.repeat(16)}-01`,
  `ff-${TRACE_ID}-${PARENT_ID}-01`,
  `00-${TRACE_ID}-${PARENT_ID.slice(1)}-01`,
];

async function started() {
  const dir = tempDir();
  dirs.push(dir);
  const log = join(dir.dir, 'received.jsonl');
  const { sup } = fleet.create(
    fleetConfig([fixtureServer('a', ['--meta-echo', '--prompts', '1', '--log', log])]),
  );
  await sup.start();
  return { sup, log };
}

/** The `_meta` the server got with a call of its request_meta tool. */
async function echoed(sup: Supervisor, opts?: CallOptions): Promise<Record<string, unknown> | null> {
  const out = await sup.callToolOutcome('a.request_meta', {}, opts);
  if (!out.ok) throw new Error(`request_meta failed: ${out.code}`);
  return JSON.parse(out.text) as Record<string, unknown> | null;
}

function register(
  make: (real: BasicTracerProvider) => BasicTracerProvider | HalfDroppingProvider = (p) => p,
) {
  exporter = new InMemorySpanExporter();
  provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  trace.setGlobalTracerProvider(make(provider));
}

describe('the trace context a server is sent', () => {
  it('drops an invalid traceparent with its tracestate and cleans the baggage, with no tracer registered', async () => {
    const { sup, log } = await started();
    for (const traceparent of INVALID) {
      const got = await echoed(sup, {
        trace: { traceparent, tracestate: 'a=1', baggage: 'k=v,x=1\r\nx-injected: 1' },
      });
      expect([traceparent, got]).toEqual([traceparent, { baggage: 'k=v' }]);
    }
    const messy = { traceparent: VALID, tracestate: 'a=1,B=2,c=3\n', baggage: ' k = v ;p, bad key=1' };
    expect(await echoed(sup, { trace: messy })).toEqual({
      traceparent: VALID,
      tracestate: 'a=1',
      baggage: 'k=v;p',
    });
    const many = Array.from({ length: 40 }, (_, i) => `k${i}=v`).join(',');
    const bounded = await echoed(sup, { trace: { traceparent: VALID, tracestate: many } });
    expect(String(bounded?.tracestate).split(',')).toHaveLength(32);

    // A prompt's request the same: nothing invalid in its _meta.
    const prompt = await sup.getPrompt(
      'a.prompt_1',
      { topic: 'owls' },
      { trace: { traceparent: INVALID[1]!, tracestate: 'a=1' } },
    );
    expect(prompt.ok).toBe(true);
    const sent = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { method?: string; params?: { _meta?: unknown } })
      .filter((m) => m.method === 'prompts/get');
    expect(sent.map((m) => m.params?._meta)).toEqual([undefined]);
  });

  it("sends a task-augmented call's trace context to a 2025 server as a plain call's, checked", async () => {
    const { sup, log } = await started();
    const given = { traceparent: VALID, tracestate: 'a=1,B=2', baggage: 'k=v' };
    const plain = await echoed(sup, { trace: given });
    expect(plain).toEqual({ traceparent: VALID, tracestate: 'a=1', baggage: 'k=v' });
    // The fixture's echo does not run as a task: its plain answer is no CreateTaskResult, but it was sent.
    const out = await sup.callToolAsTask('a.echo', { text: 'hi' }, { ttl: 60_000 }, { trace: given });
    expect(out).toMatchObject({ ok: false, code: 'INVALID_RESULT' });
    const sent = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map(
        (l) =>
          JSON.parse(l) as { method?: string; params?: { name?: string; task?: unknown; _meta?: unknown } },
      )
      .filter((m) => m.method === 'tools/call' && m.params?.task !== undefined);
    expect(sent.map((m) => [m.params?.name, m.params?._meta])).toEqual([['echo', plain]]);
  });

  it("with a tracer, an invalid traceparent is no parent, and its tracestate does not travel with the span's", async () => {
    register();
    const { sup } = await started();
    const got = await echoed(sup, {
      trace: { traceparent: `${VALID}\n`, tracestate: 'a=1', baggage: 'k=v\r\n' },
    });
    const [span] = exporter.getFinishedSpans();
    expect(span!.parentSpanContext).toBeUndefined();
    const { traceId, spanId } = span!.spanContext();
    expect(got).toEqual({ traceparent: `00-${traceId}-${spanId}-01` });
  });

  it('a valid parent reaches the server on every call, when the tracer drops one span in two', async () => {
    register((real) => new HalfDroppingProvider(real, TRACER_NAME, 'tools/call'));
    context.setGlobalContextManager(new StorageContextManager());
    const { sup } = await started();
    const host = trace.getTracer('host');
    const metas: Array<Record<string, unknown> | null> = [];
    const outer = await host.startActiveSpan('handle request', async (span) => {
      for (let i = 0; i < 4; i++) metas.push(await echoed(sup));
      span.end();
      return span.spanContext();
    });
    // The kept spans are the parents of their calls' servers; a dropped one's server gets the host's span.
    const kept = exporter.getFinishedSpans().filter((s) => s.name === 'tools/call request_meta');
    expect(kept).toHaveLength(2);
    const parentOf = (spanId: string) => `00-${outer.traceId}-${spanId}-01`;
    expect(metas.map((m) => m?.traceparent)).toEqual([
      parentOf(kept[0]!.spanContext().spanId),
      parentOf(outer.spanId),
      parentOf(kept[1]!.spanContext().spanId),
      parentOf(outer.spanId),
    ]);

    // Outside any span, the caller's own trace context is the parent that goes when the span is dropped.
    const given = { traceparent: VALID, tracestate: 'a=1', baggage: 'k=v' };
    const out = [await echoed(sup, { trace: given }), await echoed(sup, { trace: given })];
    expect(out[0]).toMatchObject({
      traceparent: expect.stringMatching(new RegExp(`^00-${TRACE_ID}-`)),
      baggage: 'k=v',
    });
    expect(out[1]).toEqual(given);
  });

  it("null options are none: the span's traceparent reaches the server", async () => {
    register();
    const { sup } = await started();
    const got = await echoed(sup, null as never);
    const [span] = exporter.getFinishedSpans();
    const { traceId, spanId } = span!.spanContext();
    expect(got).toEqual({ traceparent: `00-${traceId}-${spanId}-01` });
  });
});
