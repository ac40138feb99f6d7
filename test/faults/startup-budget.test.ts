import { afterEach, describe, expect, it } from 'vitest';
import { fixtureServer, fleetConfig, fleets, transitions } from '../supervisor/fleet.js';
import { expectReaped, ID } from './fault-harness.js';

const f = fleets();
afterEach(async () => {
  await f.reap();
  await expectReaped();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const quickStart = { timeouts: { startupMs: 300, callMs: 3000, shutdownMs: 300 } };

describe('the startup timeout covers the server, not the trust decision', () => {
  it('a healthy server starts within 300 ms when trust is decided at once', async () => {
    const { sup } = f.create(fleetConfig([fixtureServer(ID, [], quickStart)]), {
      gate: async () => ({ ok: true }),
    });
    await sup.start();
    expect(sup.status()[0]).toMatchObject({ state: 'ready', restarts: 0 });
  });

  // The startup budget runs from the spawn, not from the trust decision: a person who takes longer than
  // `timeouts.startup` to answer the CLI's prompt must not cause a counted `startup_timeout` failed start.
  it('a slow approval does not fail the start of a healthy server', async () => {
    const { sup, events } = f.create(fleetConfig([fixtureServer(ID, [], quickStart)]), {
      approve: async () => {
        await sleep(500);
        return true;
      },
    });
    await sup.start();
    expect({ status: sup.status()[0], states: transitions(events, ID) }).toMatchObject({
      status: { state: 'ready', restarts: 0 },
      states: ['stopped>spawning', 'spawning>handshaking', 'handshaking>ready'],
    });
  });
});
