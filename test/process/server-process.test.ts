import { afterEach, describe, expect, it } from 'vitest';
import { buildChildEnv } from '../../src/process/child-env.js';
import { availableContainment, type ContainmentKind } from '../../src/process/containment.js';
import { type ExitInfo, ServerProcess, type SpawnSpec } from '../../src/process/server-process.js';
import { alive, FIXTURE } from '../supervisor/helpers.js';

const have = availableContainment();
const kinds = (Object.keys(have) as ContainmentKind[]).filter((k) => have[k]);
const started: ServerProcess[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((p) => p.stop('stopped', { immediate: true })));
});

function spawnFixture(
  containment: ContainmentKind,
  args: string[],
  over: Partial<SpawnSpec> = {},
): ServerProcess {
  const proc = ServerProcess.spawn({
    serverId: 'stop-seq',
    command: process.execPath,
    args: [FIXTURE, ...args],
    cwd: process.cwd(),
    env: buildChildEnv(process.env, [], {}),
    shutdownMs: 3000,
    stdinGraceMs: 3000,
    containment,
    ...over,
  });
  started.push(proc);
  return proc;
}

/** Polls `done` every 10 ms, failing after `ms`. */
async function waitFor(done: () => boolean, what: string, ms = 8000): Promise<void> {
  const end = Date.now() + ms;
  while (!done()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Waits until the fixture has installed its handlers (a signal before that would prove nothing). */
const ready = (proc: ServerProcess) =>
  waitFor(() => proc.stderr.tail().includes('started with'), 'the fixture to start');

/**
 * Whether the exit is a SIGKILL. Under pidns the leader is unshare, which reports its init's death itself and, when
 * the init is killed a moment before it, sometimes as exit code 1; either way it is not a clean exit.
 */
function killedBy(e: ExitInfo, containment: ContainmentKind): boolean {
  if (e.signal === 'SIGKILL') return e.code === null;
  return containment === 'pidns' && e.signal === null && e.code !== 0;
}

const flags = (e: ExitInfo) => ({ requested: e.requested, timedOut: e.timedOut, forced: e.forced });

describe.each(kinds)('ServerProcess.stop (%s)', (containment) => {
  it('closes stdin first: a server that exits on EOF ends with code 0, neither timed out nor forced', async () => {
    const proc = spawnFixture(containment, []);
    await ready(proc);
    const exit = await proc.stop('draining');
    expect(exit).toMatchObject({ code: 0, signal: null, reason: 'draining' });
    expect(flags(exit)).toEqual({ requested: true, timedOut: false, forced: false });
    expect(exit.stderrTail).toContain('stdin ended; exiting');
    expect(alive(proc.pid!)).toBe(false);
    expect(proc.pids()).toEqual([]);
  });

  it('after the stdin grace, SIGTERM to the group: the server dies of it, timed out but not forced', async () => {
    const proc = spawnFixture(containment, ['--ignore-stdin-eof'], { stdinGraceMs: 300, shutdownMs: 5000 });
    await ready(proc);
    const t0 = Date.now();
    const exit = await proc.stop();
    expect(Date.now() - t0).toBeGreaterThanOrEqual(290);
    expect(exit.stderrTail).toContain('stdin ended; staying up anyway');
    if (containment === 'pidns') {
      // The server is the namespace's init, which the kernel shields from a SIGTERM it has no handler for
      // (docs/security.md): it waits out the shutdown time and is killed.
      expect(Date.now() - t0).toBeGreaterThanOrEqual(300 + 5000 - 10);
      expect(killedBy(exit, containment)).toBe(true);
      expect(flags(exit)).toEqual({ requested: true, timedOut: true, forced: true });
    } else {
      expect(exit).toMatchObject({ code: null, signal: 'SIGTERM', reason: 'stopped' });
      expect(flags(exit)).toEqual({ requested: true, timedOut: true, forced: false });
    }
    expect(alive(proc.pid!)).toBe(false);
  });

  it('after the shutdown wait, SIGKILL: a server deaf to EOF and SIGTERM is forced', async () => {
    const proc = spawnFixture(containment, ['--ignore-stdin-eof', '--ignore-sigterm'], {
      stdinGraceMs: 200,
      shutdownMs: 400,
    });
    await ready(proc);
    const t0 = Date.now();
    const exit = await proc.stop();
    expect(Date.now() - t0).toBeGreaterThanOrEqual(590);
    expect(exit.stderrTail).toContain('got SIGTERM, ignoring it');
    expect(killedBy(exit, containment)).toBe(true);
    expect(flags(exit)).toEqual({ requested: true, timedOut: true, forced: true });
    expect(alive(proc.pid!)).toBe(false);
    expect(proc.pids()).toEqual([]);
  });

  it('immediate skips the graces: SIGKILL at once, forced and not timed out', async () => {
    const proc = spawnFixture(containment, ['--ignore-stdin-eof', '--ignore-sigterm'], {
      stdinGraceMs: 30_000,
      shutdownMs: 30_000,
    });
    await ready(proc);
    const exit = await proc.stop('wedged', { immediate: true });
    expect(exit.reason).toBe('wedged');
    expect(killedBy(exit, containment)).toBe(true);
    expect(flags(exit)).toEqual({ requested: true, timedOut: false, forced: true });
  });

  it('is idempotent: every call shares one stop, and the first reason wins', async () => {
    const proc = spawnFixture(containment, []);
    await ready(proc);
    const first = proc.stop('first');
    const second = proc.stop('second', { immediate: true });
    expect(second).toBe(first);
    const exit = await first;
    expect(exit.reason).toBe('first');
    expect(exit.forced).toBe(false);
    expect(await proc.stop('third')).toBe(exit);
    expect(proc.exitInfo).toBe(exit);
  });

  it('a stop after the server exited on its own reports that exit, not a requested one', async () => {
    const proc = spawnFixture(containment, ['--exit-at-start', '3']);
    const own = await proc.exited;
    expect(own).toMatchObject({ code: 3, signal: null, reason: 'exited' });
    expect(flags(own)).toEqual({ requested: false, timedOut: false, forced: false });
    expect(await proc.stop('stopped')).toBe(own);
  });

  it('reaps every pid its containment held, grandchildren included', async () => {
    const proc = spawnFixture(containment, ['--grandchild', '--ignore-stdin-eof'], {
      stdinGraceMs: 200,
      shutdownMs: 400,
    });
    await ready(proc);
    const held = proc.pids();
    // the leader and the SIGTERM-deaf sleeper at least (plus a wrapper where the containment has one)
    expect(held.length).toBeGreaterThanOrEqual(2);
    for (const pid of held) expect(alive(pid), `pid ${pid} before stop`).toBe(true);
    await proc.stop();
    for (const pid of held) expect(alive(pid), `pid ${pid} after stop`).toBe(false);
    expect(proc.pids()).toEqual([]);
  });
});

// In a pid namespace the kernel kills everything once the namespace's init dies, so only the other two can show a
// grandchild outliving the leader.
describe.each(kinds.filter((k) => k !== 'pidns'))(
  'ServerProcess exit with a grandchild (%s)',
  (containment) => {
    it('exited resolves when the leader exits, while a grandchild still holds its pipes; stop waits for it', async () => {
      const proc = spawnFixture(containment, ['--grandchild'], { shutdownMs: 1500 });
      await ready(proc);
      const grandchild = Number(/grandchild (\d+)/.exec(proc.stderr.tail())?.[1]);
      expect(proc.pids()).toContain(grandchild);
      let closed = false;
      proc.stdout.once('close', () => {
        closed = true;
      });
      const stopping = proc.stop();
      const exit = await proc.exited;
      expect(exit).toMatchObject({ code: 0, signal: null, timedOut: false });
      // the grandchild ignores SIGTERM, so the leftover reaping cannot have ended it yet
      expect(alive(grandchild)).toBe(true);
      expect(closed).toBe(false);
      expect(await stopping).toBe(exit);
      expect(alive(grandchild)).toBe(false);
      expect(proc.pids()).toEqual([]);
    });
  },
);
