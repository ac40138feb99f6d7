import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { ContainmentKind } from '../../src/process/containment.js';
import { type LedgerEntry, procStat } from '../../src/process/ledger.js';
import { fixtureServer, fleetConfig, fleets } from '../supervisor/fleet.js';
import { tempDir } from '../supervisor/helpers.js';
import {
  ALL_ESCAPES,
  escapedPids,
  killAll,
  mechanisms,
  survivors,
  waitForEscapees,
} from './escape-helpers.js';

const HOST = fileURLToPath(new URL('../fixtures/escape-host.ts', import.meta.url));
const ALL = ALL_ESCAPES;
const have = mechanisms();
const f = fleets();
const cleanups: Array<() => void> = [];
afterEach(async () => {
  await f.reap();
  for (const c of cleanups.splice(0)) c();
});

async function readLine(child: ChildProcess): Promise<string> {
  let buf = '';
  for await (const chunk of child.stdout!) {
    buf += String(chunk);
    const nl = buf.indexOf('\n');
    if (nl >= 0) return buf.slice(0, nl);
  }
  throw new Error('host ended before printing its ledger entry');
}

/** Runs a host whose server lets every escapee loose, SIGKILLs the host, and returns what it left. */
async function crashedHost(containment: ContainmentKind) {
  const t = tempDir();
  const stateDir = join(t.dir, 'state');
  const file = join(t.dir, 'escaped');
  const host = spawn(
    process.execPath,
    ['--import', 'tsx', HOST, stateDir, join(t.dir, 'trust.json'), containment, file],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let entry: LedgerEntry | undefined;
  cleanups.push(() => {
    host.kill('SIGKILL');
    killAll(escapedPids(file));
    if (entry) killAll([entry.pgid, ...(entry.init ? [entry.init.pid] : [])]);
    t.cleanup();
  });
  entry = JSON.parse(await readLine(host)) as LedgerEntry;
  const pids = await waitForEscapees(file, ALL);
  const died = new Promise((r) => host.once('exit', r));
  host.kill('SIGKILL');
  await died;
  return { stateDir, entry, pids };
}

describe('after a host SIGKILL, the next start with the same state directory reaps every escapee', () => {
  it.runIf(have.cgroup)('cgroup: the recorded cgroup is killed and removed', async () => {
    const { stateDir, entry, pids } = await crashedHost('cgroup');
    expect(entry.cgroup).toBeDefined();
    // Nothing reaps them while no supervisor runs: the server ignores stdin EOF and every escapee SIGTERM.
    expect(survivors(pids).length).toBe(ALL);
    const { sup, events } = f.create(fleetConfig([fixtureServer('next')]), { stateDir });
    await sup.start();
    expect(survivors(pids)).toEqual([]);
    expect(survivors([entry.pgid])).toEqual([]);
    expect(existsSync(entry.cgroup!)).toBe(false);
    expect(existsSync(join(entry.cgroup!, '..'))).toBe(false);
    expect(events.find((e) => e.type === 'notice')).toMatchObject({ server: 'esc', code: 'REAPED' });
  });

  // The group's leader (the server, which ignores stdin EOF) is alive with its recorded start time, so its group is
  // provably ours and is killed; the three that left the group are out of reach, as documented.
  it('pgroup: the recorded group is killed; escapees that left it survive (documented)', async () => {
    const { stateDir, entry, pids } = await crashedHost('pgroup');
    const inGroup = pids.filter((p) => procStat(p)?.pgrp === entry.pgid);
    expect(inGroup.length).toBe(ALL - 3);
    const { sup } = f.create(fleetConfig([fixtureServer('next')]), { stateDir });
    await sup.start();
    const end = Date.now() + 3000;
    while (survivors(inGroup).length > 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
    expect(survivors(inGroup)).toEqual([]);
    expect(survivors([entry.pgid])).toEqual([]);
    expect(survivors(pids).length).toBe(3);
  });

  it.runIf(have.pidns)('pidns: the recorded init is killed, and its namespace with it', async () => {
    const { stateDir, entry, pids } = await crashedHost('pidns');
    expect(entry.init?.pid).toBeGreaterThan(1);
    expect(survivors(pids).length).toBe(ALL);
    const { sup, events } = f.create(fleetConfig([fixtureServer('next')]), { stateDir });
    await sup.start();
    const end = Date.now() + 3000;
    // The kernel tears a namespace down after its init dies: a moment, not an instant.
    while (survivors(pids).length > 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
    expect(survivors(pids)).toEqual([]);
    expect(events.find((e) => e.type === 'notice')).toMatchObject({ server: 'esc', code: 'REAPED' });
  });
});
