import { afterEach, describe, expect, it } from 'vitest';
import { buildChildEnv } from '../../src/process/child-env.js';
import { availableContainment, type ContainmentKind } from '../../src/process/containment.js';
import { ServerProcess } from '../../src/process/server-process.js';
import { alive, FIXTURE } from '../supervisor/helpers.js';

const have = availableContainment();
const kinds = (Object.keys(have) as ContainmentKind[]).filter((k) => have[k]);
const started: ServerProcess[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((p) => p.stop('stopped', { immediate: true })));
});

const bounded = <T>(p: Promise<T>, ms: number) =>
  Promise.race([p, new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), ms))]);

// A kill sent before the wrapper has put the server inside its cgroup (or namespace) must still reach it: the
// leader's own group is signalled as well, so a stop at once never waits on a server that missed the kill.
describe.each(kinds)('a stop right after the spawn (%s)', (containment) => {
  it('kills the server even before it is inside, 20 times in a row', async () => {
    for (let i = 0; i < 20; i++) {
      const proc = ServerProcess.spawn({
        serverId: 'quick',
        command: process.execPath,
        args: [FIXTURE],
        cwd: process.cwd(),
        env: buildChildEnv(process.env, [], {}),
        shutdownMs: 500,
        containment,
      });
      started.push(proc);
      const exit = await bounded(proc.stop('stopped', { immediate: true }), 3000);
      expect(exit, `spawn ${i}`).not.toBe('timeout');
      expect(alive(proc.pid!)).toBe(false);
    }
  });
});
