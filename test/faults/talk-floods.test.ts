import { afterEach, describe, expect, it } from 'vitest';
import type { SupervisorEvent } from '../../src/supervisor/types.js';
import { eventually, fixtureServer, fleetConfig, fleets } from '../supervisor/fleet.js';
import { expectReaped, ID } from './fault-harness.js';
import { watchHeap } from './heap-watch.js';

const MiB = 1024 * 1024;
const f = fleets();
afterEach(async () => {
  await f.reap();
  await expectReaped();
});

// How long each flood runs: long enough that an unbounded host grows by far more than the bound (it grew by
// ~100 MiB/s), short enough for the suite.
const FLOOD_MS = 3000;
const HEAP_BOUND = 64 * MiB;
const often = { restart: { policy: 'always' as const, limit: { maxRestarts: 1000, windowMs: 60_000 } } };

const exits = (events: SupervisorEvent[], reason: string) =>
  events.filter((e) => e.type === 'exit' && e.reason === reason);
const notices = (events: SupervisorEvent[], code: string) =>
  events.filter(
    (e): e is Extract<SupervisorEvent, { type: 'notice' }> => e.type === 'notice' && e.code === code,
  );

describe('a server that floods requests and never reads its stdin', () => {
  it('keeps the host heap bounded, and is killed and restarted as wedged each time its queue fills', async () => {
    const { sup, events } = f.create(
      fleetConfig([fixtureServer(ID, ['--request-flood', 'mix', '--flood-id-bytes', '8192'], often)]),
    );
    const heap = watchHeap();
    try {
      await sup.start();
      await heap.runFor(FLOOD_MS);
      // On a loaded machine the first kill may come late; the heap stays watched until it did.
      await heap.until(() => exits(events, 'queue_full').length > 0, 10_000, 'a kill for a full queue');
    } finally {
      heap.stop();
    }
    console.log(heap.report(`request flood for ${FLOOD_MS} ms`));
    expect(heap.peak).toBeLessThanOrEqual(HEAP_BOUND);
    const killed = exits(events, 'queue_full');
    expect(killed.length, 'kills for a full queue').toBeGreaterThanOrEqual(1);
    // Killed at once (SIGKILL), not politely asked: it reads nothing, so closing its stdin would tell it nothing.
    expect(killed[0]).toMatchObject({ signal: 'SIGKILL' });
    expect(notices(events, 'QUEUE_FULL')[0]).toMatchObject({ server: ID });
    // Beyond its budget the flood was refused in bulk: one notice per run of the server, not one event per request.
    const runs = exits(events, 'queue_full').length + 1;
    expect(notices(events, 'RATE_LIMITED').length).toBeGreaterThanOrEqual(1);
    expect(notices(events, 'RATE_LIMITED').length).toBeLessThanOrEqual(runs);
    await eventually(() => sup.status()[0]!.restarts >= 1, 5000, 'a restart');
  });

  it('fails a call in flight at once with the coded error once the bound is hit, and counts the failure', async () => {
    const server = fixtureServer(ID, ['--request-flood', 'ping', '--flood-delay', '1000'], {
      restart: { policy: 'on-failure', limit: { maxRestarts: 0, windowMs: 60_000 } },
      // A call timeout no test lives to see: only the bound can end the call, and its code says it did.
      timeouts: { startupMs: 3000, callMs: 10 * 60_000, shutdownMs: 300 },
    });
    server.limits.queueBytes = 2 * MiB;
    const { sup, events } = f.create(fleetConfig([server]));
    await sup.start();
    const outcome = await sup.callToolOutcome(`${ID}.hang`, {});
    expect(outcome).toMatchObject({ ok: false, code: 'QUEUE_FULL', server: ID });
    expect(outcome.ok ? '' : outcome.message).toMatch(
      /^server 'x' stopped reading its input: .* queued .* bound of 2 MiB/,
    );
    await eventually(() => sup.status()[0]!.state === 'failed', 5000, 'failed (no restart left)');
    expect(exits(events, 'queue_full')).toHaveLength(1);
    expect(sup.status()[0]!.lastExit).toMatchObject({ reason: 'queue_full' });
  });
});

describe('a tools/list whose nextCursor never ends', () => {
  it('after list_changed: keeps the last good tools, reports the bound hit, heap bounded', async () => {
    // The byte bound is the subject: a call timeout far beyond it, so a loaded machine cannot hit the timeout first.
    const server = fixtureServer(ID, ['--endless-list', String(256 * 1024), '--list-changed-after', '100'], {
      timeouts: { startupMs: 3000, callMs: 30_000, shutdownMs: 300 },
    });
    server.limits.listBytes = 24 * MiB;
    const { sup, events } = f.create(fleetConfig([server]));
    const heap = watchHeap();
    let before: string[] = [];
    try {
      await sup.start();
      before = sup.listTools().map((t) => t.name);
      await heap.until(() => notices(events, 'LISTING_CUT').length > 0, 15_000, 'the listing notice');
    } finally {
      heap.stop();
    }
    console.log(heap.report('endless listing'));
    expect(heap.peak).toBeLessThanOrEqual(HEAP_BOUND);
    expect(notices(events, 'LISTING_CUT')[0]).toMatchObject({ server: ID });
    expect(notices(events, 'LISTING_CUT')[0]!.message).toMatch(/24 MiB/);
    expect(before).toContain('x.echo');
    expect(sup.listTools().map((t) => t.name)).toEqual(before);
    expect(sup.status()[0]).toMatchObject({ state: 'ready', restarts: 0 });
  });

  it('after list_changed, bounded by pages', async () => {
    const server = fixtureServer(ID, ['--endless-list', '4096', '--list-changed-after', '100']);
    server.limits.listPages = 50;
    const { sup, events } = f.create(fleetConfig([server]));
    await sup.start();
    const before = sup.listTools().map((t) => t.name);
    await eventually(() => notices(events, 'LISTING_CUT').length > 0, 10_000, 'the listing notice');
    expect(notices(events, 'LISTING_CUT')[0]!.message).toMatch(/50 pages/);
    expect(sup.listTools().map((t) => t.name)).toEqual(before);
  });

  it('after list_changed, bounded by the call timeout', async () => {
    const server = fixtureServer(ID, ['--endless-list', '2048', '--list-changed-after', '100'], {
      timeouts: { startupMs: 3000, callMs: 400, shutdownMs: 300 },
    });
    server.limits.listPages = 1_000_000;
    server.limits.listBytes = 1024 * MiB;
    const { sup, events } = f.create(fleetConfig([server]));
    await sup.start();
    const before = sup.listTools().map((t) => t.name);
    await eventually(() => notices(events, 'LISTING_CUT').length > 0, 10_000, 'the listing notice');
    expect(notices(events, 'LISTING_CUT')[0]!.message).toMatch(/400 ms/);
    expect(sup.listTools().map((t) => t.name)).toEqual(before);
    expect(sup.status()[0]).toMatchObject({ state: 'ready', restarts: 0 });
  });

  it('at the handshake: the server starts with the whole pages seen up to the bound, and says so', async () => {
    const server = fixtureServer(ID, ['--endless-list', '8192', '--endless-from-start']);
    server.limits.listPages = 20;
    const { sup, events } = f.create(fleetConfig([server]));
    await sup.start();
    expect(sup.status()[0]).toMatchObject({ state: 'ready', restarts: 0 });
    // 8 tools of ~1 KiB a page, 20 pages.
    expect(sup.listTools()).toHaveLength(160);
    expect(sup.listTools().at(-1)!.name).toBe('x.endless_19_7');
    expect(notices(events, 'LISTING_CUT')[0]!.message).toMatch(/20 pages/);
  });
});
