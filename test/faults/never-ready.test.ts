import { afterEach, describe, expect, it } from 'vitest';
import { fixtureServer, fleetConfig, fleets } from '../supervisor/fleet.js';
import { gone } from '../supervisor/helpers.js';
import { expectReaped, ID } from './fault-harness.js';

const f = fleets();
afterEach(async () => {
  await f.reap();
  await expectReaped();
});

describe('a server that never becomes ready cannot hang start()', () => {
  // Every attempt (a 200 ms startup budget) outlasts the 100 ms restart window, so the window never holds more
  // than one restart; the count of failed starts in a row is what ends it.
  it('start() resolves with the server failed after maxRestarts + 1 attempts, and every attempt is reaped', async () => {
    const server = fixtureServer(ID, ['--hang-initialize'], {
      timeouts: { startupMs: 200, callMs: 1000, shutdownMs: 200 },
      restart: { limit: { maxRestarts: 2, windowMs: 100 }, backoff: { initialMs: 20, maxMs: 40 } },
    });
    const { sup, events } = f.create(fleetConfig([server]));
    const pids = new Set<number>();
    sup.subscribe(() => {
      const pid = sup.status()[0]?.pid;
      if (pid !== undefined) pids.add(pid);
    });
    // A start() that hung would time the test out; once it resolves, the server is failed for good.
    await sup.start();
    expect(sup.status()[0]).toMatchObject({ state: 'failed', restarts: 2 });
    const exits = events.filter((e) => e.type === 'exit');
    expect(exits.map((e) => (e.type === 'exit' ? e.reason : ''))).toEqual(Array(3).fill('startup_timeout'));
    expect(pids.size).toBe(3);
    for (const pid of pids) expect(await gone(pid)).toBe(true);
    expect(await sup.callTool(`${ID}.echo`)).toBe(
      `ERROR: server '${ID}' is failed: did not become ready in 3 starts in a row`,
    );
  });
});
