import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CallOutcome } from '../../../src/protocol/call-outcome.js';
import type { ReloadOutcome } from '../../../src/supervisor/reload/reloader.js';
import { eventually, fixtureServer, fleetConfig, fleets } from '../fleet.js';
import { gone } from '../helpers.js';

const f = fleets();
afterEach(() => f.reap());

const pidOf = (sup: { status(): Array<{ id: string; pid?: number }> }, id: string) =>
  sup.status().find((s) => s.id === id)?.pid;

describe('Supervisor.reload on a running fleet of real processes', () => {
  it('under load: the unchanged server loses no call and keeps its pid; changed, removed, added as asked', async () => {
    const before = fleetConfig([fixtureServer('keep'), fixtureServer('chg'), fixtureServer('gone')]);
    const { sup, events } = f.create(before);
    await sup.start();
    const keepPid = pidOf(sup, 'keep')!;
    const chgPid = pidOf(sup, 'chg')!;
    const gonePid = pidOf(sup, 'gone')!;
    // A call in flight to the server that leaves: it ends, with a code, when its server stops.
    const inFlight = sup.callToolOutcome('gone.slow', { ms: 20_000 });
    // A call to the changed server made while it stops for the swap: it waits for the new process.
    let toChanged: Promise<CallOutcome> | undefined;
    sup.subscribe((e) => {
      if (e.type === 'state' && e.server === 'chg' && e.to === 'stopping' && !toChanged)
        toChanged = sup.callToolOutcome('chg.pid', {});
    });

    const after = fleetConfig([
      fixtureServer('add'),
      fixtureServer('keep'),
      fixtureServer('chg', ['--tools', '1']),
    ]);
    // Calls back to back to the unchanged server, from before the reload until after it resolved.
    const outcomes: CallOutcome[] = [];
    let reloaded: ReloadOutcome | undefined;
    const load = (async () => {
      while (!reloaded) outcomes.push(await sup.callToolOutcome('keep.echo', { text: 'x' }));
    })();
    await eventually(() => outcomes.length >= 3, 5000, 'calls before the reload');
    reloaded = await sup.reload(after);
    await load;

    expect(reloaded).toEqual({
      ok: true,
      servers: [
        { id: 'add', action: 'started', state: 'ready' },
        { id: 'keep', action: 'unchanged', state: 'ready' },
        { id: 'chg', action: 'restarted', state: 'ready' },
        { id: 'gone', action: 'stopped', state: undefined },
      ],
      applied: [],
      needsRestart: [],
    });
    expect(outcomes.length).toBeGreaterThan(3);
    expect(outcomes.filter((o) => !o.ok)).toEqual([]);
    expect(pidOf(sup, 'keep')).toBe(keepPid);
    expect(pidOf(sup, 'chg')).not.toBe(chgPid);
    expect(await toChanged).toEqual({ ok: true, text: String(pidOf(sup, 'chg')) });
    expect(await gone(gonePid)).toBe(true);
    expect(await inFlight).toMatchObject({ ok: false, code: 'SERVER_EXITED', server: 'gone' });
    // The new definition runs: its extra tool is listed; the removed server's tools and row are gone.
    const names = sup.listTools().map((t) => t.name);
    expect(names).toContain('chg.tool_1');
    expect(names.some((n) => n.startsWith('gone.'))).toBe(false);
    expect(sup.status().map((s) => s.id)).toEqual(['add', 'keep', 'chg']);
    expect(sup.config).toBe(after);
    expect(await sup.callToolOutcome('gone.echo', { text: 'x' })).toMatchObject({
      ok: false,
      code: 'UNKNOWN_TOOL',
    });
    expect(await sup.callToolOutcome('add.echo', { text: 'y' })).toEqual({ ok: true, text: 'y' });
    // keep never left ready: no state event of it during the reload.
    expect(
      events.filter((e) => e.type === 'state' && e.server === 'keep').map((e) => e.type === 'state' && e.to),
    ).toEqual(['spawning', 'approving', 'handshaking', 'ready']);
    expect(events.filter((e) => e.type === 'reload')).toHaveLength(1);
  });

  it('a changed server whose new command line is not approved is reported untrusted, nothing else moves', async () => {
    const approved = new Set<string>();
    const { sup } = f.create(fleetConfig([fixtureServer('a'), fixtureServer('b')]), {
      // The first command line of each server is approved; a changed one is refused.
      approve: (req) => {
        if (approved.has(req.server)) return false;
        approved.add(req.server);
        return true;
      },
    });
    await sup.start();
    const aPid = pidOf(sup, 'a');
    const out = await sup.reload(fleetConfig([fixtureServer('a'), fixtureServer('b', ['--tools', '2'])]));
    expect(out.ok && out.servers).toEqual([
      { id: 'a', action: 'unchanged', state: 'ready' },
      { id: 'b', action: 'untrusted', state: 'untrusted' },
    ]);
    expect(pidOf(sup, 'a')).toBe(aPid);
    expect(pidOf(sup, 'b')).toBeUndefined();
  });

  it('a stop() during a reload ends it STOPPED, with no process left', async () => {
    // A shutdown bound no test lives to see: a stop that did not hear the server end would wait it out, and time
    // the test out. The fixture ends as soon as its stdin closes.
    const timeouts = { startupMs: 3000, callMs: 3000, shutdownMs: 10 * 60_000 };
    const { sup } = f.create(fleetConfig([fixtureServer('a', [], { timeouts })]));
    await sup.start();
    const pid = pidOf(sup, 'a')!;
    let stopped: Promise<void> | undefined;
    sup.subscribe((e) => {
      if (e.type === 'state' && e.server === 'a' && e.to === 'stopping' && !stopped) stopped = sup.stop();
    });
    const out = await sup.reload(
      fleetConfig([fixtureServer('a', ['--tools', '1'], { timeouts }), fixtureServer('b')]),
    );
    expect(out).toMatchObject({ ok: false, code: 'STOPPED' });
    await stopped;
    expect(await gone(pid)).toBe(true);
    expect(sup.status().map((s) => [s.id, s.pid])).toEqual([['a', undefined]]);
  });

  it('supervisor keys, refusals and queued reloads', async () => {
    const { sup } = f.create(fleetConfig([fixtureServer('a')]));
    expect(await sup.reload(fleetConfig([]))).toMatchObject({ ok: false, code: 'NOT_STARTED' });
    await sup.start();
    // Two reloads asked at once run one after the other: the second diffs against what the first left.
    const [first, second] = await Promise.all([
      sup.reload(
        fleetConfig([fixtureServer('a'), fixtureServer('b')], { strategy: 'one_for_all', separator: '__' }),
      ),
      sup.reload(fleetConfig([fixtureServer('b')], { strategy: 'one_for_all', separator: '__' })),
    ]);
    expect(first).toMatchObject({
      ok: true,
      servers: [
        { id: 'a', action: 'unchanged' },
        { id: 'b', action: 'started' },
      ],
      applied: ['strategy'],
      needsRestart: ['separator'],
    });
    expect(second).toMatchObject({
      ok: true,
      servers: [
        { id: 'b', action: 'unchanged' },
        { id: 'a', action: 'stopped' },
      ],
      applied: [],
      needsRestart: [],
    });
    expect(sup.actor.getSnapshot().context.books.strategy).toBe('one_for_all');
    // A changed server that was not running (stopped by hand) is started with its new definition.
    sup.stopServer('b');
    await eventually(() => sup.status()[0]?.state === 'stopped', 5000, 'b stopped');
    const third = await sup.reload(
      fleetConfig([fixtureServer('b', ['--tools', '1'])], { strategy: 'one_for_all', separator: '__' }),
    );
    expect(third).toMatchObject({ ok: true, servers: [{ id: 'b', action: 'started', state: 'ready' }] });
    const bad = fleetConfig([fixtureServer('b', ['a\0b'])]);
    expect(await sup.reload(bad)).toMatchObject({ ok: false, code: 'INVALID_CONFIG' });
    expect(sup.status().map((s) => s.id)).toEqual(['b']);
    await sup.stop();
    expect(await sup.reload(fleetConfig([]))).toMatchObject({ ok: false, code: 'STOPPED' });
  });

  it('reloadFile: a file that does not load changes nothing, and its located problems are a reload_refused event', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'reload-file-'));
    try {
      const { sup, events } = f.create(fleetConfig([fixtureServer('a')]));
      await sup.start();
      const pid = pidOf(sup, 'a');
      const path = join(dir, 'fleet.yaml');
      writeFileSync(path, 'servers:\n  a:\n    command: node\n    restart:\n      policy: sometimes\n');
      const outcome = await sup.reloadFile(path);
      expect(outcome).toMatchObject({
        ok: false,
        code: 'INVALID_CONFIG',
        problems: [{ source: path, line: 5 }],
      });
      expect(events.filter((e) => e.type === 'reload_refused')).toMatchObject([
        { code: 'INVALID_CONFIG', problems: [{ source: path, line: 5, path: 'servers.a.restart.policy' }] },
      ]);
      expect(await sup.reloadFile(join(dir, 'missing.yaml'))).toMatchObject({
        ok: false,
        code: 'INVALID_CONFIG',
        problems: [{ line: 1, col: 1 }],
      });
      expect(sup.status()).toMatchObject([{ id: 'a', state: 'ready', pid }]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
