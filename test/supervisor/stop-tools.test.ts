import { afterEach, expect, it } from 'vitest';
import type { SupervisorEvent } from '../../src/supervisor/types.js';
import { fixtureServer, fleetConfig, fleets } from './fleet.js';

// A fleet that stops takes no new call: its tools leave the table as stop() begins, one tools event per server
// (in one step since the table of a large fleet is no longer rebuilt once per server: bench/scale.ts shows that).
const { create, reap } = fleets();
afterEach(reap);

it('stop() takes every tool out at once, with one tools event per server', async () => {
  const { sup } = create(fleetConfig([fixtureServer('a'), fixtureServer('b'), fixtureServer('c')]));
  await sup.start();
  const count = sup.listTools().length;
  expect(count).toBeGreaterThan(0);
  const seen: Extract<SupervisorEvent, { type: 'tools' }>[] = [];
  sup.subscribe((e) => {
    if (e.type === 'tools') seen.push(e);
  });
  const stopped = sup.stop();
  // As stop() begins, before any server has exited.
  expect(sup.listTools()).toEqual([]);
  expect(sup.status().filter((s) => s.state === 'stopped')).toEqual([]);
  await stopped;
  expect(seen.map((e) => [e.server, e.added.length, e.removed.length]).sort()).toEqual([
    ['a', 0, count / 3],
    ['b', 0, count / 3],
    ['c', 0, count / 3],
  ]);
});
