import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SimulatedClock } from 'xstate';
import type { Supervisor } from '../../src/supervisor/supervisor.js';
import { eventually, fixtureServer, fleetConfig, fleets, transitions } from '../supervisor/fleet.js';
import { tempDir } from '../supervisor/helpers.js';
import { expectReaped, ID } from './fault-harness.js';

const f = fleets();
const dirs: Array<{ cleanup(): void }> = [];
afterEach(async () => {
  await f.reap();
  for (const d of dirs.splice(0)) d.cleanup();
  await expectReaped();
});

// The budget is counted on the supervisor's clock, which these tests drive by hand: a loaded machine can make the
// real handshake slow, but never makes the budget run out. The connection's own initialize timeout is real time
// and equals timeouts.startup, so the budget is set far above any real handshake.
const STARTUP_MS = 20_000;
const budget = { timeouts: { startupMs: STARTUP_MS, callMs: 3000, shutdownMs: 300 } };

/** Lets the trust gate's promise chain reach the spawn before the clock moves. */
const tick = () => new Promise((r) => setImmediate(r));

/** Starts and waits until the server is ready or has failed a start (start() alone would wait out the backoff). */
async function startOnce(sup: Supervisor): Promise<void> {
  void sup.start();
  const settled = ['ready', 'backoff', 'failed', 'untrusted'];
  await eventually(() => settled.includes(sup.status()[0]!.state), 15_000, 'ready or a failed start');
}

describe('the startup budget runs on the supervisor clock, from the spawn to the tool list', () => {
  it('a server that never answers initialize is cut exactly when the budget runs out, not a ms before', async () => {
    const clock = new SimulatedClock();
    const { sup, events } = f.create(fleetConfig([fixtureServer(ID, ['--hang-initialize'], budget)]), {
      gate: async () => ({ ok: true }),
      clock,
    });
    void sup.start();
    await eventually(() => sup.status()[0]!.state === 'handshaking', 10_000, 'the handshake');
    // The clock fires due timers inside increment(): the state right after it is the whole answer.
    clock.increment(STARTUP_MS - 1);
    expect(sup.status()[0]!.state).toBe('handshaking');
    clock.increment(1);
    expect(sup.status()[0]!.state).toBe('stopping');
    await eventually(() => sup.status()[0]!.state === 'backoff', 10_000, 'the backoff');
    expect(events.filter((e) => e.type === 'exit').map((e) => e.type === 'exit' && e.reason)).toEqual([
      'startup_timeout',
    ]);
  });

  // The startup budget runs from the spawn, not from the trust decision: a person who takes longer than
  // `timeouts.startup` to answer the CLI's prompt must not cause a counted `startup_timeout` failed start.
  it('a slow approval does not fail the start of a healthy server', async () => {
    const clock = new SimulatedClock();
    const { sup, events } = f.create(fleetConfig([fixtureServer(ID, [], budget)]), {
      clock,
      approve: async () => {
        await tick();
        // Ten budgets pass while the person thinks.
        clock.increment(10 * STARTUP_MS);
        return true;
      },
    });
    await startOnce(sup);
    expect({ status: sup.status()[0], states: transitions(events, ID) }).toMatchObject({
      status: { state: 'ready', restarts: 0 },
      states: ['stopped>spawning', 'spawning>approving', 'approving>handshaking', 'handshaking>ready'],
    });
  });

  // Tools found changed at the handshake wait for a person too; that wait is no part of the server's start.
  it('a slow approval of changed tools does not fail the start either', async () => {
    const t = tempDir();
    dirs.push(t);
    const trustStore = join(t.dir, 'trust.json');
    const server = fixtureServer(ID, [], budget);
    const first = f.create(fleetConfig([server]), { trustStore });
    await first.sup.start();
    await first.sup.stop();
    // As if the server had gained `echo` since its tools were pinned.
    const store = JSON.parse(readFileSync(trustStore, 'utf8'));
    delete store.servers[ID].tools.echo;
    writeFileSync(trustStore, JSON.stringify(store));
    const asked: string[] = [];
    const clock = new SimulatedClock();
    const { sup, events } = f.create(fleetConfig([server]), {
      trustStore,
      clock,
      approve: async (r) => {
        asked.push(`${r.kind}:${(r.tools ?? []).join(',')}`);
        await tick();
        clock.increment(10 * STARTUP_MS);
        return true;
      },
    });
    await startOnce(sup);
    expect({
      asked,
      status: sup.status()[0],
      states: transitions(events, ID),
      exits: events.filter((e) => e.type === 'exit').length,
    }).toMatchObject({
      asked: ['tools:echo'],
      status: { state: 'ready', restarts: 0 },
      states: ['stopped>spawning', 'spawning>handshaking', 'handshaking>ready'],
      exits: 0,
    });
    expect(sup.listTools().map((t) => t.name)).toContain(`${ID}.echo`);
  });
});
