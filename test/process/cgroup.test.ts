import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, rmdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cgroupBase, cgroupPids } from '../../src/process/cgroup.js';
import { availableContainment } from '../../src/process/containment.js';
import { liveGroups } from '../../src/process/ledger.js';
import { reapOrphans } from '../../src/process/state-dir.js';
import { eventually, fixtureServer, fleetConfig, fleets } from '../supervisor/fleet.js';
import { tempDir } from '../supervisor/helpers.js';

const f = fleets();
afterEach(() => f.reap());

const cgroupOf = (server: string) => liveGroups().find((g) => g.serverId === server)?.cgroup;

describe.runIf(availableContainment().cgroup)('cgroup containment', () => {
  it('runs the server itself inside its cgroup, with the pid the host sees', async () => {
    const { sup } = f.create(fleetConfig([fixtureServer('cg')]), { containment: 'cgroup' });
    await sup.start();
    const dir = cgroupOf('cg')!;
    expect(cgroupPids(dir)).toEqual([sup.status()[0]!.pid]);
    expect(await sup.callTool('cg.pid')).toBe(String(sup.status()[0]!.pid));
  });

  it('removes a crashed server cgroup once it is empty, and its restart gets a new one', async () => {
    const { sup } = f.create(fleetConfig([fixtureServer('cg')]), { containment: 'cgroup' });
    await sup.start();
    const first = cgroupOf('cg')!;
    const firstPid = sup.status()[0]!.pid;
    await sup.callTool('cg.crash');
    await eventually(() => sup.status()[0]!.state === 'ready' && sup.status()[0]!.pid !== firstPid);
    await eventually(() => !existsSync(first), 3000, 'the first cgroup to be removed');
    const second = cgroupOf('cg')!;
    expect(second).not.toBe(first);
    expect(dirname(second)).toBe(dirname(first));
    await sup.stop();
    expect(existsSync(second)).toBe(false);
    expect(existsSync(dirname(second))).toBe(false);
  });

  it('the next start removes the empty cgroup directories a dead host left, and leaves a populated one', async () => {
    const base = cgroupBase()!;
    const dead = 999_999_999;
    const empty = join(base, `mcp-supervisor-${dead}-t${process.pid}`);
    const full = join(base, `mcp-supervisor-${dead}-u${process.pid}`);
    mkdirSync(join(empty, 'gone-1'), { recursive: true });
    mkdirSync(join(full, 'busy-1'), { recursive: true });
    const sleeper = spawn(
      '/bin/sh',
      ['-c', `echo $$ > ${join(full, 'busy-1', 'cgroup.procs')}; exec sleep 60`],
      {
        stdio: 'ignore',
      },
    );
    try {
      await eventually(() => cgroupPids(join(full, 'busy-1')).length === 1, 3000, 'the sleeper to join');
      const state = tempDir();
      try {
        reapOrphans(state.dir);
      } finally {
        state.cleanup();
      }
      expect(existsSync(empty)).toBe(false);
      expect(existsSync(join(full, 'busy-1'))).toBe(true);
    } finally {
      sleeper.kill('SIGKILL');
      await eventually(() => cgroupPids(join(full, 'busy-1')).length === 0, 3000, 'the sleeper to die');
      rmdirSync(join(full, 'busy-1'));
      rmdirSync(full);
      if (existsSync(empty)) rmSync(empty, { recursive: true });
    }
  });
});
