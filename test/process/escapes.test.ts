import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cgroupPids } from '../../src/process/cgroup.js';
import type { ContainmentKind } from '../../src/process/containment.js';
import { liveGroups, procStat } from '../../src/process/ledger.js';
import { fixtureServer, fleetConfig, fleets } from '../supervisor/fleet.js';
import { tempDir } from '../supervisor/helpers.js';
import {
  ALL_ESCAPES,
  ESCAPES,
  escapedPids,
  killAll,
  mechanisms,
  survivors,
  waitForEscapees,
} from './escape-helpers.js';

const have = mechanisms();
const f = fleets();
const cleanups: Array<() => void> = [];
afterEach(async () => {
  await f.reap();
  for (const c of cleanups.splice(0)) c();
});

const ALL = ALL_ESCAPES;

/** Starts one fixture that lets every kind of escapee loose, under `containment`; resolves once all wrote a pid. */
async function escapingServer(containment: ContainmentKind) {
  const t = tempDir();
  const file = join(t.dir, 'escaped');
  cleanups.push(() => {
    killAll(escapedPids(file));
    t.cleanup();
  });
  const { sup } = f.create(fleetConfig([fixtureServer('esc', ['--escape', 'all', '--escape-file', file])]), {
    containment,
  });
  await sup.start();
  expect(sup.status()[0]).toMatchObject({ state: 'ready', containment });
  const pids = await waitForEscapees(file, ALL);
  return { sup, pids };
}

describe('every escape kind is gone when stop() resolves', () => {
  it.runIf(have.cgroup)(
    'cgroup: all 54 escapees were inside the cgroup, and none is alive after stop()',
    async () => {
      const { sup, pids } = await escapingServer('cgroup');
      const entry = liveGroups().find((g) => g.serverId === 'esc');
      expect(entry?.cgroup).toMatch(/\/mcp-supervisor-\d+-[a-z0-9]+\/esc-\d+$/);
      const members = new Set(cgroupPids(entry!.cgroup!));
      expect(pids.filter((p) => !members.has(p))).toEqual([]);
      await sup.stop();
      expect(survivors(pids)).toEqual([]);
      // The cgroup went with them, and its owner directory too.
      expect(existsSync(entry!.cgroup!)).toBe(false);
      expect(existsSync(join(entry!.cgroup!, '..'))).toBe(false);
      expect(liveGroups()).toEqual([]);
    },
  );

  it.runIf(have.pidns)('pidns: the namespace dies with its init, escapees and all', async () => {
    const { sup, pids } = await escapingServer('pidns');
    const entry = liveGroups().find((g) => g.serverId === 'esc');
    expect(entry?.containment).toBe('pidns');
    await sup.stop();
    expect(survivors(pids)).toEqual([]);
    expect(liveGroups()).toEqual([]);
  });

  // A process group cannot hold a process that leaves it: setsid() and setpgid() are exactly that. What the group
  // does catch is everything that stays in it, a double fork's orphan and fifty SIGTERM-proof children included.
  it('pgroup: the group members are gone; setsid, detached and setpgid escapees survive (documented)', async () => {
    const { sup, pids } = await escapingServer('pgroup');
    const leader = sup.status()[0]!.pid;
    const inGroup = pids.filter((p) => procStat(p)?.pgrp === leader);
    expect(inGroup.length).toBe(ESCAPES['double-fork'] + ESCAPES['stubborn-50']);
    await sup.stop();
    const left = survivors(pids);
    expect(left.sort()).toEqual(pids.filter((p) => !inGroup.includes(p)).sort());
    expect(left.length).toBe(3);
  });
});
