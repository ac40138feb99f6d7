import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { liveGroups } from '../../src/process/ledger.js';
import { fixtureServer, fleetConfig, fleets } from '../supervisor/fleet.js';
import { alive, gone, tempDir } from '../supervisor/helpers.js';
import { expectReaped, ID } from './fault-harness.js';

const f = fleets();
const dirs: Array<{ cleanup(): void }> = [];
afterEach(async () => {
  await f.reap();
  await expectReaped();
  for (const d of dirs.splice(0)) d.cleanup();
});

/** Starts one fixture with a SIGTERM-proof grandchild (named in the pid file only once it ignores SIGTERM). */
async function withStubbornGrandchild() {
  const t = tempDir();
  dirs.push(t);
  const pidFile = join(t.dir, 'pids.json');
  const { sup } = f.create(fleetConfig([fixtureServer(ID, ['--grandchild', '--pid-file', pidFile])]));
  await sup.start();
  const { grandchild } = JSON.parse(readFileSync(pidFile, 'utf8')) as { grandchild: number };
  return { sup, grandchild };
}

describe('stop() and the process groups it reaps', () => {
  it('reaps a SIGTERM-proof grandchild soon after stop()', async () => {
    const { sup, grandchild } = await withStubbornGrandchild();
    await sup.stop();
    expect(await gone(grandchild, 2000)).toBe(true);
    await expectReaped();
  });

  // A host that exits right after `await stop()` — what stop() is for — must not orphan a grandchild that
  // ignores SIGTERM: stop() resolves only once every group's leftovers are reaped (SPEC: "never leaves a process").
  it('has reaped every group by the time stop() resolves', async () => {
    const { sup, grandchild } = await withStubbornGrandchild();
    await sup.stop();
    const left = { grandchildAlive: alive(grandchild), groups: liveGroups().length };
    expect(left).toEqual({ grandchildAlive: false, groups: 0 });
  });
});
