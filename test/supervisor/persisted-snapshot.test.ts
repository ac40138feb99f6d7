import { afterEach, describe, expect, it } from 'vitest';
import { plainDataProblems } from '../machines/plain-data.js';
import { eventually, fixtureServer, fleetConfig, fleets, transitions } from './fleet.js';
import { alive } from './helpers.js';

const f = fleets();
afterEach(() => f.reap());

describe('the running supervisor keeps no live handle in its machines', () => {
  // The connection, the clock and the random source live with the runtime: what the actors persist is data.
  it('a fleet that crashed and came back persists as plain JSON, with its pids and books', async () => {
    const health = { intervalMs: 200, timeoutMs: 1000, failureThreshold: 3 };
    const { sup, events } = f.create(fleetConfig([fixtureServer('p1', [], { health }), fixtureServer('p2')]));
    await sup.start();
    const first = sup.status()[0]!.pid!;
    expect(await sup.callTool('p1.crash', {}, { scopes: [] })).toMatch(/^ERROR: /);
    await eventually(
      () =>
        transitions(events, 'p1')
          .join(' ')
          .includes('>backoff backoff>spawning spawning>handshaking handshaking>ready'),
      10_000,
      'p1 back to ready',
    );
    const persisted = sup.actor.getPersistedSnapshot();
    expect(plainDataProblems(persisted)).toEqual([]);
    const json = JSON.parse(JSON.stringify(persisted));
    expect(json).toEqual(persisted);
    const pid = sup.status()[0]!.pid!;
    expect(pid).not.toBe(first);
    expect(alive(pid)).toBe(true);
    expect(json).toMatchObject({
      context: {
        books: {
          children: [
            { id: 'p1', restarts: 1, phase: 'running' },
            { id: 'p2', restarts: 0 },
          ],
        },
      },
      children: { 'server:p1': { snapshot: { context: { pid, lastExit: { code: 1 } } } } },
    });
  });
});
