import { afterEach, describe, expect, it } from 'vitest';
import { type ServerDetail, ServerDetails } from '../../src/inspector/server-details.js';
import { SseHub } from '../../src/inspector/sse-hub.js';
import { FakeSource, sampleFleet } from './fake-source.js';
import { listenFor } from './hub-server.js';
import { SseClient } from './sse-client.js';

const cleanups: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function serve(hub: SseHub): Promise<string> {
  return listenFor((_req, res) => hub.attach(res), cleanups);
}

describe('SseHub', () => {
  it('sends keepalive comments on its interval', async () => {
    const hub = new SseHub(new FakeSource(sampleFleet()), { keepaliveMs: 40 });
    cleanups.push(() => hub.close());
    const es = await SseClient.open(await serve(hub));
    cleanups.push(() => es.close());
    await es.until((f) => f.filter((x) => x.comment === 'keepalive').length >= 2);
    expect(es.frames[0]).toEqual({ retry: 1000 });
    expect(es.frames[1]?.event).toBe('status');
  });

  it('keeps only the newest events for replay', async () => {
    const source = new FakeSource(sampleFleet());
    const hub = new SseHub(source, { historySize: 3 });
    cleanups.push(() => hub.close());
    for (const to of ['spawning', 'handshaking', 'ready', 'wedged', 'stopping'] as const)
      source.transition('git', to);
    const es = await SseClient.open(await serve(hub));
    cleanups.push(() => es.close());
    await es.until((f) => f.filter((x) => x.event === 'supervisor').length === 3);
    const tos = es.named('supervisor').map((f) => (JSON.parse(f.data ?? '{}') as { to: string }).to);
    expect(tos).toEqual(['ready', 'wedged', 'stopping']);
  });

  it("leaves a server's stderr lines out, so a flood of them cannot push state changes out of the replay", async () => {
    const source = new FakeSource(sampleFleet());
    const hub = new SseHub(source, { historySize: 3 });
    cleanups.push(() => hub.close());
    source.transition('git', 'spawning');
    for (let i = 0; i < 10; i++)
      source.emit({ type: 'stderr', server: 'git', line: `l${i}`, dropped: 0, at: 0 });
    source.transition('git', 'handshaking');
    source.emit({ type: 'log', server: 'git', level: 'info', data: 'hi', at: 0 });
    const es = await SseClient.open(await serve(hub));
    cleanups.push(() => es.close());
    await es.until((f) => f.filter((x) => x.event === 'supervisor').length === 3);
    const types = es.named('supervisor').map((f) => (JSON.parse(f.data ?? '{}') as { type: string }).type);
    expect(types).toEqual(['state', 'state', 'log']);
  });

  it('drops a client that stops reading instead of buffering without bound', async () => {
    const source = new FakeSource(sampleFleet());
    const hub = new SseHub(source, { maxBufferedBytes: 64 * 1024 });
    cleanups.push(() => hub.close());
    const es = await SseClient.open(await serve(hub));
    cleanups.push(() => es.close());
    await es.until((f) => f.some((x) => x.event === 'status'));
    expect(hub.clientCount).toBe(1);
    es.pause();
    const big = 'x'.repeat(16 * 1024);
    for (let i = 0; i < 2000 && hub.clientCount > 0; i++) {
      source.emit({ type: 'notice', server: null, message: big, at: Date.now() });
      if (i % 50 === 0) await new Promise((r) => setTimeout(r, 1));
    }
    expect(hub.clientCount).toBe(0);
  });

  it("sends each server's detail on connect and a changed one as it changes, and the fleet's phase", async () => {
    const source = new FakeSource(sampleFleet());
    source.fleetPhase = 'running';
    const details = new ServerDetails(source);
    cleanups.push(() => details.close());
    const hub = new SseHub(source, { details, detailIntervalMs: 20 });
    cleanups.push(() => hub.close());
    const es = await SseClient.open(await serve(hub));
    cleanups.push(() => es.close());
    await es.until((f) => f.filter((x) => x.event === 'detail').length === 3);
    const detailOf = (f: { data?: string }) => JSON.parse(f.data ?? '{}') as ServerDetail;
    expect(es.named('detail').map((f) => detailOf(f).server)).toEqual(['files', 'search', 'git']);
    expect(JSON.parse(es.named('status')[0]!.data ?? '{}')).toMatchObject({ fleet: 'running' });

    source.call({ server: 'search', tool: 'search.q', ms: 2, code: 'OK', bytes: 9 });
    await es.until((f) => f.filter((x) => x.event === 'detail').length === 4);
    const last = detailOf(es.named('detail')[3]!);
    expect(last.server).toBe('search');
    expect(last.calls).toMatchObject([{ tool: 'search.q', code: 'OK', bytes: 9 }]);

    // The host stopped its fleet, then the inspector: the last frames say so.
    source.fleetPhase = 'stopped';
    source.servers[0]!.state = 'stopped';
    await hub.close();
    await es.until(() => es.ended);
    const [status, end] = es.frames.slice(-2);
    expect(JSON.parse(status?.data ?? '{}')).toMatchObject({
      fleet: 'stopped',
      servers: [{ state: 'stopped' }, {}, {}],
    });
    expect(end).toMatchObject({ event: 'end', data: '{"fleet":"stopped"}' });
  });

  it('ends every stream on close and ignores events afterwards', async () => {
    const source = new FakeSource(sampleFleet());
    const hub = new SseHub(source);
    const es = await SseClient.open(await serve(hub));
    cleanups.push(() => es.close());
    await es.until((f) => f.some((x) => x.event === 'status'));
    hub.close();
    hub.close();
    await es.until(() => es.ended);
    expect(source.listeners.size).toBe(0);
    expect(hub.clientCount).toBe(0);
  });
});
