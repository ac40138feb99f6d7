import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { availableContainment, type ContainmentKind } from '../../src/process/containment.js';
import { ServerProcess } from '../../src/process/server-process.js';
import type { SupervisorEvent } from '../../src/supervisor/types.js';
import { fixtureServer, fleetConfig, fleets } from '../supervisor/fleet.js';
import { tempDir } from '../supervisor/helpers.js';

const f = fleets();
const cleanups: Array<() => void> = [];
afterEach(async () => {
  await f.reap();
  for (const c of cleanups.splice(0)) c();
});

const have = availableContainment();
const kinds = (Object.keys(have) as ContainmentKind[]).filter((k) => have[k]);

/** Starts one server that cannot be spawned and returns its first exit event and status row. */
async function failedStart(containment: ContainmentKind, over: Parameters<typeof fixtureServer>[2]) {
  const { sup, events } = f.create(
    fleetConfig([fixtureServer('bad', [], { ...over, restart: { policy: 'never' } })]),
    { containment },
  );
  await sup.start();
  const exit = events.find((e): e is Extract<SupervisorEvent, { type: 'exit' }> => e.type === 'exit');
  return { exit, row: sup.status()[0]! };
}

function dir(): string {
  const t = tempDir();
  cleanups.push(t.cleanup);
  return t.dir;
}

// A wrapper (the cgroup trampoline, unshare) would report a missing command as its own exit 127: the launch is
// resolved before anything is spawned, so every mechanism says the same, as data.
describe.each(kinds)('a failed spawn says why, as data (%s)', (containment) => {
  it('a command not on PATH: ENOENT, with the PATH searched', async () => {
    const { exit, row } = await failedStart(containment, {
      command: 'no-such-command-here',
      args: [],
      env: { PATH: '/nonexistent-a:/nonexistent-b' },
    });
    expect(exit).toMatchObject({
      reason: 'spawn_failed',
      code: null,
      spawnError: {
        code: 'ENOENT',
        command: 'no-such-command-here',
        searched: '/nonexistent-a:/nonexistent-b',
      },
    });
    expect(row.lastExit?.spawnError?.code).toBe('ENOENT');
  });

  it('a missing cwd: CWD_MISSING, naming it', async () => {
    const cwd = join(dir(), 'gone');
    const { exit } = await failedStart(containment, { cwd });
    expect(exit).toMatchObject({ reason: 'spawn_failed', spawnError: { code: 'CWD_MISSING', cwd } });
  });

  it('a file that is not executable: EACCES, naming the file', async () => {
    const file = join(dir(), 'server.sh');
    writeFileSync(file, '#!/bin/sh\nexit 0\n');
    chmodSync(file, 0o644);
    const { exit } = await failedStart(containment, { command: file, args: [] });
    expect(exit).toMatchObject({ reason: 'spawn_failed', spawnError: { code: 'EACCES', file } });
  });
});

// Config validation refuses these first; a host that builds a connection itself still gets data, not a throw.
describe('a launch value the system refuses', () => {
  it('a NUL byte in an argument is a spawn_failed exit with the system code, not an exception', async () => {
    const proc = ServerProcess.spawn({
      serverId: 'nul',
      command: process.execPath,
      args: ['-e', 'a\0b'],
      cwd: process.cwd(),
      env: { PATH: process.env.PATH ?? '' },
      shutdownMs: 300,
    });
    const exit = await proc.exited;
    expect(exit).toMatchObject({ reason: 'spawn_failed', spawnError: { code: 'ERR_INVALID_ARG_VALUE' } });
    expect(proc.pid).toBeUndefined();
  });
});
