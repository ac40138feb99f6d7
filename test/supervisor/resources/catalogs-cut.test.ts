import { afterEach, describe, expect, it } from 'vitest';
import type { SupervisorEvent } from '../../../src/supervisor/types.js';
import { eventually, fixtureServer, fleetConfig, fleets, notices } from '../fleet.js';

// A resources re-list whose page arrives cut to the per-page cap (1 MiB of items: the resources past it left out)
// did not reach the end of the server's resources: the catalog that routes reads must stay the last good one.
const MiB = 1024 * 1024;
const { create, reap } = fleets();
afterEach(reap);

const resourceEvents = (events: SupervisorEvent[]) =>
  events.filter((e) => e.type === 'resources' && e.server === 'x');

describe('a resources re-list cut at the per-page cap', () => {
  it('keeps the last good catalog, so its URIs still route, and says so', async () => {
    const timeouts = { startupMs: 5000, callMs: 10_000, shutdownMs: 300 };
    const { sup, events } = create(
      fleetConfig([
        fixtureServer('x', ['--resources', '2', '--oversize-relist', String(2 * MiB)], { timeouts }),
        // A second server with resources of its own: a URI no catalog lists routes nowhere.
        fixtureServer('y', ['--resources', '0'], { timeouts }),
      ]),
    );
    await sup.start();
    const read = () => sup.readResource('fixture://resource/2');
    expect(await read()).toMatchObject({ ok: true, server: 'x' });
    const listed = resourceEvents(events).length;
    // add_resource says the list changed; the re-read it asks for either replaces the catalog or is cut.
    expect(await sup.callToolOutcome('x.add_resource', {})).toMatchObject({ ok: true });
    await eventually(
      () => resourceEvents(events).length > listed || notices(events, 'LISTING_CUT').length > 0,
      15_000,
      'the re-list to settle',
    );
    expect(await read()).toMatchObject({ ok: true, server: 'x' });
    expect(notices(events, 'LISTING_CUT').map((n) => [n.server, n.message])).toEqual([
      [
        'x',
        'resources/list stopped at page 1, cut to the page cap of 1 MiB; keeping the last good resource lists',
      ],
    ]);
  }, 30_000);
});
