import { afterEach, describe, expect, it } from 'vitest';
import { type HttpGateway, serveHttp } from '../../../src/gateway/http/serve-http.js';
import { fixtureServer, fleetConfig, fleets } from '../../supervisor/fleet.js';
import { until } from '../serve-helpers.js';
import { listen2026, type SseStream } from './helpers.js';

// A drain finishes what is open: a 2026 subscriptions/listen stream is open work, as a session is, so it ends
// with the drain, not only when the listener closes.

const { create, reap } = fleets();
const streams: SseStream[] = [];
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const s of streams.splice(0)) s.close();
  await Promise.all(closers.splice(0).map((close) => close()));
  await reap();
});

/** Resolves when `p` does, or rejects after `ms` saying `what` did not happen. */
async function within(p: Promise<unknown>, ms: number, what: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    p,
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(what)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

describe('serveHttp: drain', () => {
  it('ends an open 2026 listen stream, and refuses a new one', async () => {
    const { sup } = create(fleetConfig([fixtureServer('fx')]));
    const http: HttpGateway = await serveHttp(sup, { address: { host: '127.0.0.1', port: 0 } });
    closers.push(() => http.close());
    const url = new URL(http.url);
    const stream = await listen2026(url, 1);
    streams.push(stream);
    expect(stream.status).toBe(200);
    await until(() => (stream.events.length > 0 ? true : undefined), 10_000, 'the acknowledgement');
    await within(http.drain({ delayMs: 0 }), 10_000, 'the drain did not finish');
    await within(stream.ended, 10_000, 'the listen stream is still open after the drain');
    const late = await listen2026(url, 2);
    streams.push(late);
    expect(late.status).toBe(503);
  }, 30_000);
});
