import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fixtureServer, fleetConfig, fleets, transitions } from '../supervisor/fleet.js';
import { tempDir } from '../supervisor/helpers.js';
import { expectReaped, ID } from './fault-harness.js';

const f = fleets();
const dirs: Array<{ cleanup(): void }> = [];
afterEach(async () => {
  await f.reap();
  for (const d of dirs.splice(0)) d.cleanup();
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

  // Tools found changed at the handshake wait for a person too; that wait is no part of the server's start.
  it('a slow approval of changed tools does not fail the start either', async () => {
    const t = tempDir();
    dirs.push(t);
    const trustStore = join(t.dir, 'trust.json');
    const server = fixtureServer(ID, [], quickStart);
    const first = f.create(fleetConfig([server]), { trustStore });
    await first.sup.start();
    await first.sup.stop();
    // As if the server had gained `echo` since its tools were pinned.
    const store = JSON.parse(readFileSync(trustStore, 'utf8'));
    delete store.servers[ID].tools.echo;
    writeFileSync(trustStore, JSON.stringify(store));
    const asked: string[] = [];
    const { sup, events } = f.create(fleetConfig([server]), {
      trustStore,
      approve: async (r) => {
        asked.push(`${r.kind}:${(r.tools ?? []).join(',')}`);
        await sleep(600);
        return true;
      },
    });
    await sup.start();
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
