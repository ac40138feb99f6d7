import { afterEach, describe, expect, it } from 'vitest';
import { SseHub } from '../../src/inspector/sse-hub.js';
import type { ServerStatus } from '../../src/supervisor/types.js';
import { FakeSource, sampleFleet } from './fake-source.js';
import { listenFor } from './hub-server.js';
import { SseClient } from './sse-client.js';

// The inspector of a large fleet: what one server's change costs each page must not grow with the fleet, and a
// page's first state, however large, does not count against the margin a slow page is cut at.
const cleanups: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function serve(hub: SseHub): Promise<string> {
  return listenFor((_req, res) => hub.attach(res), cleanups);
}

/** A fleet of `n` servers, each like the sample's crashed one (a long exit tail: rows of a realistic size). */
function fleet(n: number): ServerStatus[] {
  const model = sampleFleet()[1]!;
  return Array.from({ length: n }, (_, i) => ({ ...model, id: `s${i}`, lastExit: { ...model.lastExit! } }));
}

/** The bytes one server's restart (exit, then backoff → spawning) sends a page once the fleet's order is known. */
async function restartBytes(n: number): Promise<{ bytes: number; rows: number }> {
  const source = new FakeSource(fleet(n));
  const hub = new SseHub(source, { statusIntervalMs: 0 });
  cleanups.push(() => hub.close());
  const es = await SseClient.open(await serve(hub));
  cleanups.push(() => es.close());
  await es.until((f) => f.some((x) => x.event === 'status'));
  // The first push after a page attached tells the order; from then on only changed rows go.
  source.transition('s0', 'spawning');
  await es.until((f) => f.filter((x) => x.event === 'status').length === 2);
  const from = es.frames.length;
  source.exit('s1', { code: 1, signal: null, reason: 'crashed', stderrTail: 'boom' });
  source.transition('s1', 'backoff');
  source.transition('s1', 'spawning');
  await es.until((f) => f.slice(from).some((x) => x.event === 'servers' && x.data?.includes('"spawning"')));
  const sent = es.frames.slice(from);
  expect(sent.filter((x) => x.event === 'status')).toEqual([]);
  const rows = sent
    .filter((x) => x.event === 'servers')
    .flatMap((x) => (JSON.parse(x.data ?? '{}') as { servers: ServerStatus[] }).servers);
  return { bytes: sent.reduce((sum, x) => sum + (x.data?.length ?? 0), 0), rows: rows.length };
}

describe('SseHub at scale', () => {
  it("delivers one server's restart as an update whose size does not grow with the fleet", async () => {
    const small = await restartBytes(10);
    const large = await restartBytes(1000);
    // Only s1's row, however many servers there are.
    expect(large.rows).toBe(small.rows);
    expect(large.bytes).toBeLessThan(small.bytes * 1.2);
  });

  it('keeps the stream of a page whose first state alone passes the margin', async () => {
    // Rows with long exit tails: a first state of several MiB, more than the socket takes at once.
    const rows = fleet(1500).map((r) => ({
      ...r,
      lastExit: { ...r.lastExit!, stderrTail: 'x'.repeat(4096) },
    }));
    const source = new FakeSource(rows);
    const hub = new SseHub(source, { maxBufferedBytes: 1024, statusIntervalMs: 0 });
    cleanups.push(() => hub.close());
    // An event in the very turn the page attached: its first state is still queued when the event is sent out,
    // which is when a page past its margin is cut.
    const counted: number[] = [];
    const url = await listenFor((_req, res) => {
      hub.attach(res);
      source.transition('s3', 'spawning');
      counted.push(hub.clientCount);
    }, cleanups);
    const es = await SseClient.open(url);
    cleanups.push(() => es.close());
    await es.until((f) => f.some((x) => x.event === 'supervisor' && x.data?.includes('"s3"')), 20_000);
    expect(counted).toEqual([1]);
    expect(es.named('status')[0]?.data?.length).toBeGreaterThan(4 * 1024 * 1024);
  });
});
