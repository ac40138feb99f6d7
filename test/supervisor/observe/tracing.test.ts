import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually, fixtureServer, fleetConfig, fleets } from '../fleet.js';
import { tempDir } from '../helpers.js';
import { StorageContextManager } from './host-otel.js';

const fleet = fleets();
let provider: BasicTracerProvider | undefined;
let exporter = new InMemorySpanExporter();
const dirs: Array<{ cleanup(): void }> = [];

function register(): void {
  // A provider's shutdown stops its exporter too: each test gets its own.
  exporter = new InMemorySpanExporter();
  provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  trace.setGlobalTracerProvider(provider);
}

afterEach(async () => {
  await fleet.reap();
  trace.disable();
  context.disable();
  await provider?.shutdown();
  provider = undefined;
  for (const d of dirs.splice(0)) d.cleanup();
});

/** The `_meta` of each `method` request the fixture received, in order (its `--log` file). */
function callMetas(log: string, method = 'tools/call'): Array<Record<string, unknown> | undefined> {
  return readFileSync(log, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { method?: string; params?: { _meta?: Record<string, unknown> } })
    .filter((m) => m.method === method)
    .map((m) => m.params?._meta);
}

/** A started fixture with a prompt and a resource, logging what it receives. */
async function promptsFleet() {
  const dir = tempDir();
  dirs.push(dir);
  const log = join(dir.dir, 'received.jsonl');
  const { sup } = fleet.create(
    fleetConfig([fixtureServer('fx', ['--prompts', '1', '--resources', '1', '--log', log])]),
  );
  await sup.start();
  await eventually(() => sup.listPrompts().length > 0, 5000, 'the prompts');
  return { sup, log };
}

const named = (name: string) => exporter.getFinishedSpans().filter((s: ReadableSpan) => s.name === name);

describe('OpenTelemetry spans', () => {
  it('makes a CLIENT span per tool call with the MCP attributes, and sends its traceparent to the server', async () => {
    register();
    const dir = tempDir();
    dirs.push(dir);
    const log = join(dir.dir, 'received.jsonl');
    const { sup } = fleet.create(fleetConfig([fixtureServer('fx', ['--log', log])]));
    await sup.start();

    expect(await sup.callToolOutcome('fx.echo', { text: 'hi' })).toEqual({ ok: true, text: 'hi' });
    const parent = { traceId: 'a'.repeat(32), spanId: 'b'.repeat(16) };
    await sup.callToolOutcome(
      'fx.fail',
      { message: 'no' },
      { trace: { traceparent: `00-${parent.traceId}-${parent.spanId}-01`, baggage: 'k=v' } },
    );
    await sup.callToolOutcome('fx.error', { code: -32001 });
    const result = await sup.callToolResult('fx.echo', { text: 'as a result' });
    expect(result.isError).toBeUndefined();

    const [ok] = named('tools/call echo');
    expect(ok).toBeDefined();
    expect(ok!.kind).toBe(SpanKind.CLIENT);
    expect(ok!.attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'echo',
      'mcp_supervisor.tool': 'fx.echo',
      'mcp_supervisor.server': 'fx',
      'mcp_supervisor.outcome': 'OK',
      'network.transport': 'pipe',
      'mcp.protocol.version': '2025-11-25',
    });
    expect(ok!.status.code).toBe(SpanStatusCode.UNSET);
    expect(ok!.parentSpanContext).toBeUndefined();

    // The caller's trace context is the parent; what the server gets is this span's, the baggage kept.
    const [failed] = named('tools/call fail');
    expect(failed!.spanContext().traceId).toBe(parent.traceId);
    expect(failed!.parentSpanContext?.spanId).toBe(parent.spanId);
    expect(failed!.attributes).toMatchObject({
      'mcp_supervisor.outcome': 'TOOL_ERROR',
      'error.type': 'tool_error',
    });
    expect(failed!.status.code).toBe(SpanStatusCode.ERROR);

    const [remote] = named('tools/call error');
    expect(remote!.attributes).toMatchObject({
      'mcp_supervisor.outcome': 'REMOTE_ERROR',
      'error.type': '-32001',
      'rpc.response.status_code': '-32001',
    });

    const metas = callMetas(log);
    const traceparent = (s: ReadableSpan) => `00-${s.spanContext().traceId}-${s.spanContext().spanId}-01`;
    expect(metas[0]).toMatchObject({ traceparent: traceparent(ok!) });
    expect(metas[1]).toMatchObject({ traceparent: traceparent(failed!), baggage: 'k=v' });
    expect(metas[2]).toMatchObject({ traceparent: traceparent(remote!) });
    expect(named('tools/call echo')).toHaveLength(2);
    expect(metas[3]).toMatchObject({ traceparent: traceparent(named('tools/call echo')[1]!) });

    // Options of the wrong shape are still the call's to refuse; a traceparent that is none is not a parent.
    const junk = await sup.callToolOutcome('fx.echo', { text: 'x' }, 42 as never);
    expect(junk).toMatchObject({ ok: false, code: 'INVALID_CALL' });
    const badTrace = { trace: 'traceparent' } as never;
    expect(await sup.callToolOutcome('fx.echo', { text: 'x' }, badTrace)).toMatchObject({
      code: 'INVALID_CALL',
    });
    await sup.callToolOutcome(
      'fx.echo',
      { text: 'odd parent' },
      { trace: { traceparent: 'not-a-traceparent' } },
    );
    const odd = named('tools/call echo').at(-1)!;
    expect(odd.parentSpanContext).toBeUndefined();
    expect(callMetas(log)[4]).toMatchObject({ traceparent: traceparent(odd) });

    // Unregistered, the API is a no-op again: no span, and nothing added to the request.
    trace.disable();
    exporter.reset();
    await sup.callToolOutcome('fx.echo', { text: 'quiet' });
    expect(exporter.getFinishedSpans()).toEqual([]);
    expect(callMetas(log)[5]).toBeUndefined();
  });

  it('makes a call made inside a host span a child of it', async () => {
    register();
    context.setGlobalContextManager(new StorageContextManager());
    const { sup } = fleet.create(fleetConfig([fixtureServer('fx')]));
    await sup.start();
    const host = trace.getTracer('host');
    await host.startActiveSpan('handle request', async (outer) => {
      await sup.callToolOutcome('fx.echo', { text: 'inside' });
      outer.end();
    });
    const [outer] = named('handle request');
    const [call] = named('tools/call echo');
    expect(call!.spanContext().traceId).toBe(outer!.spanContext().traceId);
    expect(call!.parentSpanContext?.spanId).toBe(outer!.spanContext().spanId);
  });

  it('makes a server.run span per process, an event per transition, its crash as an error', async () => {
    register();
    const { sup } = fleet.create(
      fleetConfig([fixtureServer('fx', [], { restart: { limit: { maxRestarts: 0, windowMs: 60_000 } } })]),
    );
    await sup.start();
    // It crashes once ready, when told to: a timed exit could land before ready on a loaded machine.
    await sup.callToolOutcome('fx.crash', { code: 3 });
    await eventually(() => sup.status()[0]!.state === 'failed', 10_000, 'fx failed');

    const [run] = named('server.run');
    expect(run!.attributes).toMatchObject({
      'mcp_supervisor.server': 'fx',
      'mcp_supervisor.exit.reason': 'exited',
      'mcp_supervisor.exit.code': 3,
      'mcp.protocol.version': '2025-11-25',
    });
    expect(run!.status.code).toBe(SpanStatusCode.ERROR);
    expect(run!.events.map((e) => e.name)).toEqual([
      'state spawning',
      'state approving',
      'state handshaking',
      'state ready',
      'state failed',
    ]);
    expect(run!.parentSpanContext).toBeUndefined();
  });

  it('makes a CLIENT span per prompts/get (named by the prompt) and per resources/read (the URI an attribute)', async () => {
    register();
    const { sup } = fleet.create(fleetConfig([fixtureServer('fx', ['--prompts', '1', '--resources', '1'])]));
    await sup.start();
    await eventually(() => sup.listPrompts().length > 0, 5000, 'the prompts');
    expect((await sup.getPrompt('fx.prompt_1', { topic: 'owls' })).ok).toBe(true);
    expect((await sup.getPrompt('fx.no-such-prompt')).ok).toBe(false);
    expect((await sup.readResource('fixture://resource/1')).ok).toBe(true);

    const [got] = named('prompts/get prompt_1');
    expect(got!.kind).toBe(SpanKind.CLIENT);
    expect(got!.attributes).toMatchObject({
      'mcp.method.name': 'prompts/get',
      'gen_ai.prompt.name': 'prompt_1',
      'mcp_supervisor.prompt': 'fx.prompt_1',
      'mcp_supervisor.server': 'fx',
      'mcp_supervisor.outcome': 'OK',
    });
    const [unknown] = named('prompts/get fx.no-such-prompt');
    expect(unknown!.attributes['mcp_supervisor.outcome']).toBe('UNKNOWN_PROMPT');
    expect(unknown!.status.code).toBe(SpanStatusCode.ERROR);
    const [read] = named('resources/read');
    expect(read!.attributes).toMatchObject({
      'mcp.method.name': 'resources/read',
      'mcp.resource.uri': 'fixture://resource/1',
      'mcp_supervisor.server': 'fx',
      'mcp_supervisor.outcome': 'OK',
    });
  });

  it("sends a prompts/get's and a resources/read's traceparent to the server, its span a child of the caller's", async () => {
    register();
    const { sup, log } = await promptsFleet();
    const parent = { traceId: 'c'.repeat(32), spanId: 'd'.repeat(16) };
    const trace = { traceparent: `00-${parent.traceId}-${parent.spanId}-01`, baggage: 'k=v' };
    expect((await sup.getPrompt('fx.prompt_1', { topic: 'owls' }, { trace })).ok).toBe(true);
    expect((await sup.readResource('fixture://resource/1', { trace })).ok).toBe(true);

    const traceparent = (s: ReadableSpan) => `00-${s.spanContext().traceId}-${s.spanContext().spanId}-01`;
    for (const [span, method] of [
      [named('prompts/get prompt_1')[0]!, 'prompts/get'],
      [named('resources/read')[0]!, 'resources/read'],
    ] as const) {
      expect(span.spanContext().traceId).toBe(parent.traceId);
      expect(span.parentSpanContext?.spanId).toBe(parent.spanId);
      expect(callMetas(log, method)).toEqual([
        expect.objectContaining({ traceparent: traceparent(span), baggage: 'k=v' }),
      ]);
    }
  });

  it("passes the caller's trace context on as given when no tracer is registered", async () => {
    const { sup, log } = await promptsFleet();
    const trace = { traceparent: `00-${'e'.repeat(32)}-${'f'.repeat(16)}-01` };
    expect((await sup.getPrompt('fx.prompt_1', { topic: 'owls' }, { trace })).ok).toBe(true);
    expect((await sup.readResource('fixture://resource/1', { trace })).ok).toBe(true);
    expect(callMetas(log, 'prompts/get')).toEqual([trace]);
    expect(callMetas(log, 'resources/read')).toEqual([trace]);
    const bad = await sup.readResource('fixture://resource/1', { trace: 'traceparent' } as never);
    expect(bad).toMatchObject({ ok: false, code: 'INVALID_CALL' });
  });
});
