import { afterEach, describe, expect, it } from 'vitest';
import { fixtureServer, fleetConfig, fleets } from './fleet.js';

// sup.searchTools over a real fleet (fixture processes): found by what they do, and the index in step with the
// registry from the very event that tells of a change.
const { create, reap } = fleets();
afterEach(reap);

describe('sup.searchTools', () => {
  it('finds tools by what they do, best first, bounded by limit', async () => {
    const { sup } = create(fleetConfig([fixtureServer('fx')]));
    await sup.start();
    const [best] = sup.searchTools('sum of two numbers');
    expect(best).toMatchObject({ name: 'fx.add', description: 'Returns the sum of a and b.' });
    expect(best!.inputSchema).toMatchObject({ type: 'object', properties: { a: {}, b: {} } });
    expect(sup.searchTools('send an elicitation request').map((h) => h.name)[0]).toBe('fx.elicit');
    expect(sup.searchTools('returns', { limit: 3 })).toHaveLength(3);
    expect(sup.searchTools('returns', { limit: 500 }).length).toBeLessThanOrEqual(50);
    expect(sup.searchTools('xylophone')).toEqual([]);
  });

  it('finds a tool added by list_changed, and loses a stopped server’s, within the turn that tells of it', async () => {
    const { sup } = create(fleetConfig([fixtureServer('fx'), fixtureServer('other')]));
    await sup.start();
    expect(sup.searchTools('added_1', { limit: 50 }).map((h) => h.name)).not.toContain('fx.added_1');
    // Searched inside the listener of the event that says the tools changed: no later turn is waited for.
    const seen = new Promise<string[]>((resolve) => {
      const off = sup.subscribe((e) => {
        if (e.type !== 'tools' || e.server !== 'fx' || e.added.length === 0) return;
        off();
        resolve(sup.searchTools('added_1', { limit: 3 }).map((h) => h.name));
      });
    });
    expect(await sup.callToolOutcome('fx.change_tools', {})).toMatchObject({ ok: true });
    expect((await seen)[0]).toBe('fx.added_1');
    const gone = new Promise<string[]>((resolve) => {
      const off = sup.subscribe((e) => {
        if (e.type !== 'state' || e.server !== 'other' || e.to !== 'stopped') return;
        off();
        resolve(sup.searchTools('returns its text', { limit: 50 }).map((h) => h.name));
      });
    });
    expect(await sup.stopServer('other')).toMatchObject({ ok: true });
    const after = await gone;
    expect(after).toContain('fx.echo');
    expect(after.filter((n) => n.startsWith('other.'))).toEqual([]);
  });

  it('never finds the tools of a server the trust gate holds back', async () => {
    const { sup } = create(fleetConfig([fixtureServer('ok'), fixtureServer('held')]), {
      approve: (request) => request.server !== 'held',
    });
    await sup.start();
    expect(sup.status().map((s) => [s.id, s.state])).toEqual([
      ['ok', 'ready'],
      ['held', 'untrusted'],
    ]);
    const names = sup.searchTools('returns its text', { limit: 50 }).map((h) => h.name);
    expect(names).toContain('ok.echo');
    expect(names.filter((n) => n.startsWith('held.'))).toEqual([]);
  });
});
