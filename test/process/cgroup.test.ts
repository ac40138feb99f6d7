import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cgroupPids } from '../../src/process/cgroup.js';
import { availableContainment } from '../../src/process/containment.js';
import { liveGroups } from '../../src/supervisor/process-ledger.js';
import { eventually, fixtureServer, fleetConfig, fleets } from '../supervisor/fleet.js';

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
});
