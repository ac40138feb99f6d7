import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { cgroupBase } from '../../src/process/cgroup.js';
import { procStat } from '../../src/process/ledger.js';
import { reapOrphans } from '../../src/process/state-dir.js';
import { fixtureServer, fleetConfig, fleets } from '../supervisor/fleet.js';
import { alive, firstLine, gone, tempDir } from '../supervisor/helpers.js';

const HOST = fileURLToPath(new URL('../fixtures/crash-host.ts', import.meta.url));
const HOOKED = fileURLToPath(new URL('../fixtures/hooked-host.ts', import.meta.url));
const f = fleets();
const dirs: Array<{ cleanup(): void }> = [];
const spawned: ChildProcess[] = [];
const pids: number[] = [];
afterEach(async () => {
  await f.reap();
  for (const c of spawned.splice(0)) c.kill('SIGKILL');
  for (const pid of pids.splice(0)) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {}
  }
  for (const d of dirs.splice(0)) d.cleanup();
});

describe('a host killed with SIGKILL', () => {
  it('leaves well-behaved children to exit on stdin EOF; the next start reaps the rest from the state directory', async () => {
    const t = tempDir();
    dirs.push(t);
    const stateDir = join(t.dir, 'state');
    const host = spawn(process.execPath, ['--import', 'tsx', HOST, stateDir, join(t.dir, 'trust.json')], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    spawned.push(host);
    const servers = JSON.parse(await firstLine(host)) as { stubborn: number; polite: number };
    pids.push(servers.stubborn, servers.polite);
    const hostExited = new Promise((r) => host.once('exit', r));
    host.kill('SIGKILL');
    expect(await gone(servers.polite)).toBe(true);
    // With the host gone nothing is left that could reap the stubborn one but the next start.
    await hostExited;
    expect(alive(servers.stubborn)).toBe(true);

    const { sup, events } = f.create(fleetConfig([fixtureServer('next')]), { stateDir });
    await sup.start();
    expect(await gone(servers.stubborn)).toBe(true);
    expect(events.find((e) => e.type === 'notice')).toMatchObject({ server: 'stubborn', code: 'REAPED' });
  });

  it('never kills a process whose pid was reused', async () => {
    const t = tempDir();
    dirs.push(t);
    const bystander = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], {
      detached: true,
      stdio: 'ignore',
    });
    spawned.push(bystander);
    const pid = bystander.pid!;
    pids.push(pid);
    const wrongStart = (procStat(pid)?.startTime ?? 0) - 1;
    const ledger = {
      host: { pid: 999_999, procStart: 1 },
      groups: [{ pgid: pid, serverId: 'old', startedAt: 0, procStart: wrongStart }],
    };
    writeFileSync(join(t.dir, 'ledger-999999.json'), JSON.stringify(ledger));
    expect(reapOrphans(t.dir).map((f) => f.code)).toEqual(['NOT_PROVABLY_OURS']);
    expect(alive(pid)).toBe(true);
    const right = { ...ledger, groups: [{ ...ledger.groups[0], procStart: wrongStart + 1 }] };
    writeFileSync(join(t.dir, 'ledger-999999.json'), JSON.stringify(right));
    expect(reapOrphans(t.dir).map((f) => [f.server, f.code])).toEqual([['old', 'REAPED']]);
    expect(await gone(pid)).toBe(true);
  });

  it('with installReapHooks, a SIGTERM to the host reaps every group before it dies', async () => {
    const t = tempDir();
    dirs.push(t);
    const host = spawn(process.execPath, ['--import', 'tsx', HOOKED, join(t.dir, 'trust.json')], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    spawned.push(host);
    const pid = Number(await firstLine(host));
    pids.push(pid);
    expect(alive(pid)).toBe(true);
    const ended = new Promise<string | null>((r) => host.once('exit', (_code, signal) => r(signal)));
    host.kill('SIGTERM');
    expect(await ended).toBe('SIGTERM');
    expect(await gone(pid, 1000)).toBe(true);
    // The hooks also removed the cgroups they emptied: nothing of the host is left under the hierarchy.
    const base = cgroupBase();
    if (base !== null)
      expect(readdirSync(base).filter((name) => name.startsWith(`mcp-supervisor-${host.pid}-`))).toEqual([]);
  });
});
