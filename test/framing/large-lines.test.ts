import { afterEach, describe, expect, it } from 'vitest';
import type { SupervisorEvent } from '../../src/supervisor/types.js';
import { wideTools } from '../fixtures/fixture-large.mjs';
import { eventually, fixtureServer, fleetConfig, fleets } from '../supervisor/fleet.js';

const { create, reap } = fleets();
afterEach(reap);

const MiB = 1024 * 1024;
const UNDER = 300_000; // over the 64 KiB inline threshold, under the 1 MiB list page cap
const OVER = 2.5 * MiB;

type Notice = Extract<SupervisorEvent, { type: 'notice' }>;

describe('large lines from a real server (fixture --large-lines)', () => {
  it('passes a list page under its cap whole, cuts a larger one and a large notification, each with a coded notice', async () => {
    const { sup, events } = create(
      fleetConfig([
        fixtureServer('under', ['--large-lines', String(UNDER)]),
        fixtureServer('over', ['--large-lines', String(OVER)]),
      ]),
    );
    await sup.start();
    await eventually(() => sup.status().every((s) => s.state === 'ready'), 10_000, 'both ready');
    const cuts = () => events.filter((e): e is Notice => e.type === 'notice' && e.code === 'MESSAGE_CUT');
    await eventually(() => cuts().length >= 3, 5000, 'three MESSAGE_CUT notices');

    const wide = (server: string) => sup.listTools().filter((t) => t.name.startsWith(`${server}.wide_`));
    // Under the cap: every tool, definitions as sent.
    expect(wide('under').map((t) => t.name)).toEqual(
      wideTools(UNDER).map((t) => `under.wide_${t.name.slice(5)}`),
    );
    expect(wide('under')[7]!.inputSchema).toEqual(wideTools(UNDER)[7]!.inputSchema);
    // Over it: the first tools that fit in 1 MiB, in order, and a notice saying how many of how many.
    const total = wideTools(OVER).length;
    const kept = wide('over');
    expect(kept.length).toBeGreaterThan(500);
    expect(kept.length).toBeLessThan(total);
    expect(kept.map((t) => t.name)).toEqual(
      wideTools(OVER)
        .slice(0, kept.length)
        .map((t) => `over.${t.name}`),
    );
    expect(sup.listTools().some((t) => t.name === 'over.echo')).toBe(true);
    const listCut = cuts().filter((n) => n.server === 'over' && /list page/.test(n.message));
    expect(listCut).toHaveLength(1);
    const [, first, of] = /kept the first (\d+) of (\d+) tools/.exec(listCut[0]!.message) ?? [];
    expect(Number(of) - Number(first)).toBe(total - kept.length);

    // The large log notification reaches the host as its level and logger, its data left out and named.
    const logs = events.filter((e) => e.type === 'log' && e.logger === 'large');
    expect(logs.map((e) => e.type === 'log' && [e.server, e.level, e.data]).sort()).toEqual([
      ['over', 'info', undefined],
      ['under', 'info', undefined],
    ]);
    const noteCuts = cuts().filter((n) => n.message.includes('notifications/message'));
    expect(noteCuts.map((n) => n.server).sort()).toEqual(['over', 'under']);
    for (const n of noteCuts) expect(n.message).toContain('without data');
    expect(cuts().filter((n) => n.server === 'under')).toHaveLength(1);
    // Megabytes of JSON framed and cut: room for a loaded machine.
  }, 40_000);
});
