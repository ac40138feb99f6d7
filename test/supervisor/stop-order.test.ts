import { afterEach, describe, expect, it } from 'vitest';
import { liveGroups } from '../../src/process/ledger.js';
import type { SupervisorEvent } from '../../src/supervisor/types.js';
import { fixtureServer, fleetConfig, fleets } from './fleet.js';
import { gone } from './helpers.js';

const f = fleets();
afterEach(async () => {
  await f.reap();
  expect(liveGroups()).toEqual([]);
});

/** `server>state` for every step into stopping or stopped, in the order the fleet took them. */
const stopSteps = (events: SupervisorEvent[]) =>
  events.flatMap((e) =>
    e.type === 'state' && (e.to === 'stopping' || e.to === 'stopped') ? [`${e.server}>${e.to}`] : [],
  );

const trio = () => [fixtureServer('a'), fixtureServer('b'), fixtureServer('c')];

describe('Supervisor.stop order', () => {
  it('one_for_one: every server is told to stop, in reverse order, before the first of them is down', async () => {
    const { sup, events } = f.create(fleetConfig(trio()));
    await sup.start();
    const pids = sup.status().map((s) => s.pid!);
    const from = events.length;
    await sup.stop();
    const steps = stopSteps(events.slice(from));
    expect(steps.slice(0, 3)).toEqual(['c>stopping', 'b>stopping', 'a>stopping']);
    expect(steps.slice(3).sort()).toEqual(['a>stopped', 'b>stopped', 'c>stopped']);
    for (const pid of pids) expect(await gone(pid)).toBe(true);
  });

  it.each(['one_for_all', 'rest_for_one'] as const)(
    '%s: each server is down before the one before it is told to stop',
    async (strategy) => {
      const { sup, events } = f.create(fleetConfig(trio(), { strategy }));
      await sup.start();
      const pids = sup.status().map((s) => s.pid!);
      const from = events.length;
      await sup.stop();
      expect(stopSteps(events.slice(from))).toEqual([
        'c>stopping',
        'c>stopped',
        'b>stopping',
        'b>stopped',
        'a>stopping',
        'a>stopped',
      ]);
      for (const pid of pids) expect(await gone(pid)).toBe(true);
    },
  );
});
