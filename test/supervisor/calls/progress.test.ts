import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SimulatedClock } from 'xstate';
import type { ServerConfig } from '../../../src/config/types.js';
import type { ProgressUpdate } from '../../../src/protocol/pending-requests.js';
import { eventually, fixtureServer, fleetConfig, fleets } from '../fleet.js';

const f = fleets();
afterEach(() => f.reap());

const EVERYTHING = join(process.cwd(), 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

/** The official server-everything over stdio: its long-running tool reports progress when given a token. */
function everything(id = 'ev'): ServerConfig {
  return fixtureServer(id, [], {
    args: [EVERYTHING, 'stdio'],
    timeouts: { startupMs: 15_000, callMs: 5000, shutdownMs: 1000 },
  });
}

const LONG = 'ev.trigger-long-running-operation';

describe('progress of a tool call', () => {
  it('reaches onProgress with progress and total, and each update restarts the timeout', async () => {
    const { sup } = f.create(fleetConfig([everything()]));
    await sup.start();
    const updates: ProgressUpdate[] = [];
    // Four steps of 250 ms take a second in all, well past the 600 ms timeout: only the resets let it finish.
    const outcome = await sup.callToolOutcome(
      LONG,
      { duration: 1, steps: 4 },
      { timeoutMs: 600, onProgress: (u) => updates.push(u) },
    );
    expect(outcome).toEqual({ ok: true, text: expect.stringContaining('Steps: 4') });
    expect(updates).toEqual([1, 2, 3, 4].map((progress) => ({ progress, total: 4 })));
  }, 30_000);

  it('without onProgress the same call times out: no token is sent, so nothing resets the timeout', async () => {
    const { sup } = f.create(fleetConfig([everything()]));
    await sup.start();
    const outcome = await sup.callToolOutcome(LONG, { duration: 1, steps: 4 }, { timeoutMs: 600 });
    expect(outcome).toMatchObject({ ok: false, code: 'TIMEOUT' });
  }, 30_000);

  it('progress never carries a call past maxTotalTimeoutMs', async () => {
    // The bounds run on the clock, moved 450 ms at a time, each step right after an update heard at the clock's
    // time: well within the 600 ms of silence allowed, so only the 900 ms in all can end the call.
    const clock = new SimulatedClock();
    const { sup } = f.create(fleetConfig([everything()]), { clock });
    await sup.start();
    const updates: ProgressUpdate[] = [];
    // A step every 200 ms for 4 s of real time: updates keep coming long after the clock has passed 900 ms.
    const call = sup.callToolOutcome(
      LONG,
      { duration: 4, steps: 20 },
      { timeoutMs: 600, maxTotalTimeoutMs: 900, onProgress: (u) => updates.push(u) },
    );
    for (let step = 0; step < 2; step++) {
      const heard = updates.length;
      await eventually(() => updates.length > heard, 10_000, 'a progress update');
      clock.increment(450);
    }
    // The message names the bound that ended it: the 900 ms in all, not the 600 ms of silence.
    expect(await call).toMatchObject({
      ok: false,
      code: 'TIMEOUT',
      message: `tool '${LONG}' timed out after 900 ms in all (progress kept it going until then)`,
    });
    expect(updates.length).toBeGreaterThanOrEqual(2);
  }, 30_000);

  it('refuses an onProgress that is not a function, before anything is sent', async () => {
    const { sup } = f.create(fleetConfig([fixtureServer('fx')]));
    await sup.start();
    const outcome = await sup.callToolOutcome('fx.echo', { text: 'x' }, {
      onProgress: 'yes',
    } as never);
    expect(outcome).toMatchObject({ ok: false, code: 'INVALID_CALL' });
  });
});
