import { afterEach, describe, expect, it } from 'vitest';
import type { SupervisorEvent } from '../../../src/supervisor/types.js';
import { eventually, fixtureServer, fleetConfig, fleets, notices } from '../fleet.js';

// A re-list whose page arrives cut to the per-page cap (1 MiB of items: its cursor, and the tools past the cap, are
// left out) did not reach the end of the server's tools: it must not replace the ones exposed.
const MiB = 1024 * 1024;
const { create, reap } = fleets();
afterEach(reap);

const toolEvents = (events: SupervisorEvent[]) =>
  events.filter((e) => e.type === 'tools' && e.server === 'x');

/** Starts server `x`, has it change its tools, and waits until the re-list it asks for has settled either way. */
async function relistAfterChange(args: string[]) {
  const { sup, events } = create(
    fleetConfig([
      fixtureServer('x', args, { timeouts: { startupMs: 5000, callMs: 10_000, shutdownMs: 300 } }),
    ]),
  );
  await sup.start();
  const before = sup.listTools().map((t) => t.name);
  const startEvents = toolEvents(events).length;
  const changed = await sup.callToolOutcome('x.change_tools', {});
  expect(changed).toMatchObject({ ok: true });
  // The re-list either replaced the tools (a `tools` event) or was cut and said so: wait for whichever comes.
  await eventually(
    () => toolEvents(events).length > startEvents || notices(events, 'LISTING_CUT').length > 0,
    15_000,
    'the re-list to settle',
  );
  return { sup, events, before };
}

describe('a re-list cut at the per-page cap keeps the last good tool set', () => {
  it('an endless chain of pages each over the cap', async () => {
    const { sup, events, before } = await relistAfterChange(['--endless-list', String(2 * MiB)]);
    expect(before).toContain('x.echo');
    expect(sup.listTools().map((t) => t.name)).toEqual(before);
    const [cut] = notices(events, 'LISTING_CUT');
    expect(cut).toMatchObject({ server: 'x' });
    expect(cut!.message).toBe(
      'tools/list stopped at page 1, cut to the page cap of 1 MiB; keeping the last good tool set',
    );
    // The page itself was reported as it arrived.
    expect(notices(events, 'MESSAGE_CUT')).toHaveLength(1);
    expect(sup.status()[0]).toMatchObject({ state: 'ready', restarts: 0 });
  });

  it('one last page, without a cursor, over the cap', async () => {
    const { sup, events, before } = await relistAfterChange([
      '--endless-list',
      String(2 * MiB),
      '--endless-pages',
      '1',
    ]);
    expect(sup.listTools().map((t) => t.name)).toEqual(before);
    expect(notices(events, 'LISTING_CUT')[0]!.message).toMatch(/^tools\/list stopped at page 1, cut to/);
  });
});

describe('a first listing cut at the per-page cap', () => {
  it('starts with the tools the page kept, and says the listing was cut', async () => {
    const { sup, events } = create(
      fleetConfig([fixtureServer('x', ['--endless-list', String(2 * MiB), '--endless-from-start'])]),
    );
    await sup.start();
    const names = sup.listTools().map((t) => t.name);
    expect(names.length).toBeGreaterThan(500);
    expect(names.length).toBeLessThan(2048);
    expect(names.at(-1)).toBe(`x.endless_0_${names.length - 1}`);
    await eventually(() => notices(events, 'LISTING_CUT').length > 0, 5000, 'the listing notice');
    expect(notices(events, 'LISTING_CUT')[0]!.message).toBe(
      'tools/list stopped at page 1, cut to the page cap of 1 MiB; starting with the tools of the pages taken',
    );
  });
});
