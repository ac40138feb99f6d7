import { afterEach, describe, expect, it } from 'vitest';
import { SimulatedClock } from 'xstate';
import { eventually, fixtureServer, fleetConfig, fleets, transitions } from './fleet.js';

const f = fleets();
afterEach(() => f.reap());

describe('the runtime stamps exits from the clock and random source a host injects', () => {
  it('a crash is restarted after exactly initial × (1 + draw × jitter) on the clock, with the exit time from it', async () => {
    const clock = new SimulatedClock();
    const draws: number[] = [];
    const backoff = { initialMs: 1000, jitter: 1, maxMs: 10_000 };
    const { sup, events } = f.create(fleetConfig([fixtureServer('j', [], { restart: { backoff } })]), {
      clock,
      random: () => {
        draws.push(0.25);
        return 0.25;
      },
    });
    await sup.start();
    clock.increment(5000);
    expect(await sup.callTool('j.crash', {}, { scopes: [] })).toMatch(/^ERROR: /);
    await eventually(() => sup.status()[0]!.state === 'backoff', 10_000, 'the backoff');
    expect(draws).toEqual([0.25]);
    expect(events.find((e) => e.type === 'exit')).toMatchObject({ code: 1, at: 5000 });
    // Timers fire inside increment(): the state right after it is the whole answer.
    clock.increment(1249);
    expect(sup.status()[0]!.state).toBe('backoff');
    clock.increment(1);
    expect(sup.status()[0]!.state).toBe('spawning');
    await eventually(() => sup.status()[0]!.state === 'ready', 10_000, 'ready again');
    expect(sup.status()[0]!.restarts).toBe(1);
    expect(transitions(events, 'j').slice(-4)).toEqual([
      'ready>backoff',
      'backoff>spawning',
      'spawning>handshaking',
      'handshaking>ready',
    ]);
  });
});

describe('a call runs on the clock a host injects', () => {
  it('times out when the clock passes its deadline, not when the wall clock does', async () => {
    const clock = new SimulatedClock();
    const { sup } = f.create(fleetConfig([fixtureServer('h')]), { clock });
    await sup.start();
    let settled = false;
    // A call to a ready server is written, and its deadline armed on the clock, before callToolOutcome returns.
    const call = sup.callToolOutcome('h.hang', {}, { scopes: [], timeoutMs: 60_000 });
    void call.then(() => {
      settled = true;
    });
    const turn = () => new Promise((resolve) => setImmediate(resolve));
    clock.increment(59_999);
    await turn();
    expect(settled).toBe(false);
    clock.increment(1);
    expect(await call).toMatchObject({
      ok: false,
      code: 'TIMEOUT',
      message: "tool 'h.hang' timed out after 60000 ms",
    });
    // Nothing waited for real time: a call that did would outlive the test's own 20 s timeout, not end here.
  });
});
