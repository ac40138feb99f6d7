import { afterEach, describe, expect, it } from 'vitest';
import type { CallRecord } from '../../../src/supervisor/calls/records.js';
import { fixtureServer, fleetConfig, fleets } from '../fleet.js';

const fleet = fleets();
afterEach(() => fleet.reap());

describe('Supervisor.onCall', () => {
  it('reports each finished call with its server, outcome code, duration and result size', async () => {
    const { sup } = fleet.create(fleetConfig([fixtureServer('fx')]));
    await sup.start();
    const seen: CallRecord[] = [];
    const off = sup.onCall((r) => seen.push(r));

    await sup.callToolOutcome('fx.echo', { text: 'héllo' });
    await sup.callToolOutcome('fx.fail', { message: 'no' });
    await sup.callToolOutcome('nope.echo', {});
    await sup.callToolResult('fx.big', { bytes: 3000 });
    await sup.callToolResult('fx.error', { code: -32001 });
    await sup.callToolOutcome('fx.slow', { ms: 60 });
    expect(seen.map(({ server, tool, code, bytes }) => ({ server, tool, code, bytes }))).toEqual([
      { server: 'fx', tool: 'fx.echo', code: 'OK', bytes: 6 },
      { server: 'fx', tool: 'fx.fail', code: 'TOOL_ERROR', bytes: 0 },
      { server: undefined, tool: 'nope.echo', code: 'UNKNOWN_TOOL', bytes: 0 },
      { server: 'fx', tool: 'fx.big', code: 'OK', bytes: 3000 },
      { server: 'fx', tool: 'fx.error', code: 'REMOTE_ERROR', bytes: 0 },
      { server: 'fx', tool: 'fx.slow', code: 'OK', bytes: 4 },
    ]);
    expect(seen[5]!.ms).toBeGreaterThanOrEqual(55);
    expect(seen[0]!.at).toBeLessThanOrEqual(Date.now());

    // A listener that throws is reported, never the caller's problem; one that left hears nothing more.
    sup.onCall(() => {
      throw new Error('listener bug');
    });
    off();
    expect(await sup.callToolOutcome('fx.echo', { text: 'x' })).toEqual({ ok: true, text: 'x' });
    expect(seen).toHaveLength(6);
  });
});
