import { afterEach, describe, expect, it } from 'vitest';
import type { SupervisorEvent } from '../../../src/supervisor/types.js';
import { eventually, fixtureServer, fleetConfig, fleets, notices } from '../fleet.js';

// A prompts re-list whose page arrives cut to the per-page cap (1 MiB of items: the prompts past it left out) did
// not reach the end of the server's prompts: it must not replace the ones exposed, as a cut tools/list does not.
const MiB = 1024 * 1024;
const { create, reap } = fleets();
afterEach(reap);

const promptEvents = (events: SupervisorEvent[]) =>
  events.filter((e) => e.type === 'prompts' && e.server === 'x');

describe('a prompts re-list cut at the per-page cap', () => {
  it('keeps the last good prompt list and says so', async () => {
    const { sup, events } = create(
      fleetConfig([
        fixtureServer(
          'x',
          ['--prompts', '2', '--prompts-changed-after', '50', '--oversize-relist', String(2 * MiB)],
          { timeouts: { startupMs: 5000, callMs: 10_000, shutdownMs: 300 } },
        ),
      ]),
    );
    await sup.start();
    await eventually(() => sup.listPrompts().length > 0, 5000, 'the first prompt list');
    const before = sup.listPrompts().map((p) => p.name);
    expect(before).toEqual(['x.prompt_1', 'x.prompt_2', 'x.odd name/with spaces']);
    const listed = promptEvents(events).length;
    // The server says its prompts changed; the re-list it asks for either replaces them or is cut and says so.
    await eventually(
      () => promptEvents(events).length > listed || notices(events, 'LISTING_CUT').length > 0,
      15_000,
      'the re-list to settle',
    );
    expect(sup.listPrompts().map((p) => p.name)).toEqual(before);
    expect(notices(events, 'LISTING_CUT').map((n) => [n.server, n.message])).toEqual([
      [
        'x',
        'prompts/list stopped at page 1, cut to the page cap of 1 MiB; keeping the last good prompt list',
      ],
    ]);
    expect(notices(events, 'MESSAGE_CUT')).toHaveLength(1);
  }, 30_000);
});
