import { describe, expect, it } from 'vitest';
import { SimulatedClock } from 'xstate';
import type { InitializeResult } from '../../src/protocol/connection-types.js';
import { negotiate } from '../../src/protocol/negotiate.js';

/** Lets what a timer fired inside increment() set off run to its end: nothing here waits for real time. */
const turn = () => new Promise((r) => setImmediate(r));

describe('negotiate on an unknown era', () => {
  it('sends initialize when the probe bound runs out on its clock, not a ms before, with the whole startup budget', async () => {
    const clock = new SimulatedClock();
    const sent: Array<{ method: string; at: number; timeoutMs: number }> = [];
    const init: InitializeResult = { protocolVersion: '2025-11-25', capabilities: {} };
    // A 2025 server that never answers the probe, over stdio (the probe stays open beside initialize).
    const negotiated = negotiate({
      pinned: undefined,
      hint: undefined,
      startupMs: 3000,
      lateProbe: true,
      clock,
      discover: (timeoutMs) => {
        sent.push({ method: 'server/discover', at: clock.now(), timeoutMs });
        return new Promise(() => {});
      },
      initialize: async (timeoutMs) => {
        sent.push({ method: 'initialize', at: clock.now(), timeoutMs });
        return init;
      },
    });
    // min(2 s, a third of the startup) = 1 s.
    clock.increment(999);
    await turn();
    expect(sent.map((s) => s.method)).toEqual(['server/discover']);
    clock.increment(1);
    await turn();
    expect(sent).toEqual([
      { method: 'server/discover', at: 0, timeoutMs: 3000 },
      { method: 'initialize', at: 1000, timeoutMs: 3000 },
    ]);
    expect(await negotiated).toEqual({ era: 'legacy', init });
  });
});
