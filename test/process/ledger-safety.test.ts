import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { procStat } from '../../src/process/ledger.js';
import { readLedger } from '../../src/process/ledger-journal.js';
import { reapOrphans } from '../../src/process/state-dir.js';
import { fixtureServer, fleetConfig, fleets } from '../supervisor/fleet.js';
import { alive, tempDir } from '../supervisor/helpers.js';

const PID_REUSE = fileURLToPath(new URL('../fixtures/pid-reuse-host.ts', import.meta.url));
const REAP_HOST = fileURLToPath(new URL('../fixtures/reap-host.ts', import.meta.url));
const f = fleets();
const cleanups: Array<() => void> = [];
afterEach(async () => {
  await f.reap();
  for (const c of cleanups.splice(0)) c();
});

function dir(): string {
  const t = tempDir();
  cleanups.push(t.cleanup);
  return t.dir;
}

/** Runs `args` under node + tsx to its end and returns how it ended and its first stdout line as JSON. */
async function runHost(args: string[]) {
  const host: ChildProcess = spawn(process.execPath, ['--import', 'tsx', ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
    // A group of its own: the ledger it reaps names that group.
    detached: true,
  });
  cleanups.push(() => host.kill('SIGKILL'));
  let out = '';
  host.stdout!.on('data', (d: Buffer) => {
    out += d.toString();
  });
  const [code, signal] = await new Promise<[number | null, string | null]>((r) =>
    host.once('exit', (c, s) => r([c, s])),
  );
  const line = out.split('\n')[0] ?? '';
  return { code, signal, result: line ? (JSON.parse(line) as Record<string, unknown>) : undefined };
}

/** Why a private pid namespace with a writable ns_last_pid is unavailable here, or undefined when it is there. */
function namespaceUnavailable(): string | undefined {
  if (process.getuid?.() !== 0) return 'not root, so /proc/sys/kernel/ns_last_pid cannot be written';
  const probe = spawnSync(
    'unshare',
    ['--pid', '--fork', '--mount-proc', '/bin/sh', '-c', 'echo 5 > /proc/sys/kernel/ns_last_pid'],
    { stdio: 'ignore', timeout: 5000 },
  );
  return probe.status === 0 ? undefined : `unshare --pid --fork --mount-proc failed (status ${probe.status})`;
}

const noNamespace = namespaceUnavailable();
if (noNamespace) console.log(`pid-reuse test skipped: ${noNamespace}`);

describe('a crashed host ledger kills nothing unrelated', () => {
  it.skipIf(noNamespace !== undefined)(
    'a recorded pid reused by an unrelated group leader, whose child lingers in its group, is left alone',
    () => {
      const run = spawnSync(
        'unshare',
        ['--pid', '--fork', '--mount-proc', process.execPath, '--import', 'tsx', PID_REUSE, dir()],
        { encoding: 'utf8', timeout: 30_000 },
      );
      const out = JSON.parse(run.stdout.split('\n')[0] || '{}') as Record<string, unknown>;
      if (out.skipped) console.log(`pid-reuse test skipped: ${String(out.skipped)}`);
      else {
        // The bystander sat in a group whose id is the recorded pid, and it lived through the reaping.
        expect(out).toMatchObject({ sameGroup: true, survived: true });
        expect(out.findings).toEqual([expect.objectContaining({ server: 'old', code: 'NOT_PROVABLY_OURS' })]);
      }
    },
  );

  it('an entry with pgid 0 (the caller group) is ignored and reported, and the reaping host lives', async () => {
    const { code, signal, result } = await runHost([REAP_HOST, dir(), 'pgid0']);
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    expect(result?.findings).toEqual([expect.objectContaining({ code: 'IGNORED_UNSAFE_PGID' })]);
  });

  it("an entry naming the host's own process group, with its real start time, is ignored and reported", async () => {
    const { code, signal, result } = await runHost([REAP_HOST, dir(), 'own-group']);
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    expect(result?.findings).toEqual([expect.objectContaining({ code: 'IGNORED_UNSAFE_PGID' })]);
  });

  // kill(-1) from root is every process on the machine: this one is only ever run against the fixed reaper.
  it('an entry with pgid 1 and the start time of pid 1 is ignored and reported', async () => {
    const { code, signal, result } = await runHost([REAP_HOST, dir(), 'pgid1']);
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    expect(result?.findings).toEqual([expect.objectContaining({ code: 'IGNORED_UNSAFE_PGID' })]);
  });

  it('entries with unparsable fields are ignored and reported; a bystander named by them lives', async () => {
    const d = dir();
    const bystander = spawn('sleep', ['60'], { detached: true, stdio: 'ignore' });
    cleanups.push(() => bystander.kill('SIGKILL'));
    const pid = bystander.pid!;
    const start = procStat(pid)!.startTime;
    const groups = [
      { pgid: pid, serverId: 'no-start', startedAt: 0 },
      { pgid: String(pid), serverId: 'string-pgid', startedAt: 0, procStart: start },
      { pgid: pid, serverId: 'bad-init', startedAt: 0, procStart: start, init: { pid: 'x' } },
      { pgid: pid, serverId: 'bad-kind', startedAt: 0, procStart: start, containment: 'jail' },
    ];
    writeFileSync(
      join(d, 'ledger-999999.json'),
      JSON.stringify({ host: { pid: 999_999, procStart: 1 }, groups }),
    );
    writeFileSync(join(d, 'ledger-999998.json'), '{"host": ');
    const findings = reapOrphans(d);
    expect(alive(pid)).toBe(true);
    expect(findings.map((x) => [x.server, x.code]).sort()).toEqual(
      [
        [null, 'IGNORED_UNPARSABLE'],
        ['bad-init', 'IGNORED_UNPARSABLE'],
        ['bad-kind', 'IGNORED_UNPARSABLE'],
        ['no-start', 'IGNORED_UNPARSABLE'],
        ['string-pgid', 'IGNORED_UNPARSABLE'],
      ].sort(),
    );
  });
});

describe('what the next start found is reported', () => {
  it('a refused ledger entry is a notice event with its code, naming the server', async () => {
    const stateDir = dir();
    const groups = [{ pgid: 0, serverId: 'zero', startedAt: 0, procStart: 1 }];
    writeFileSync(
      join(stateDir, 'ledger-999999.json'),
      JSON.stringify({ host: { pid: 999_999, procStart: 1 }, groups }),
    );
    const { sup, events } = f.create(fleetConfig([fixtureServer('a')]), { stateDir });
    await sup.start();
    expect(events.filter((e) => e.type === 'notice')).toEqual([
      expect.objectContaining({ server: 'zero', code: 'IGNORED_UNSAFE_PGID' }),
    ]);
  });
});

describe('two supervisors sharing a state directory', () => {
  it("each keeps its own ledger file: one stopping never deletes the other's record", async () => {
    const stateDir = dir();
    const a = f.create(fleetConfig([fixtureServer('a', ['--ignore-stdin-eof'])]), { stateDir });
    const b = f.create(fleetConfig([fixtureServer('b')]), { stateDir });
    await Promise.all([a.sup.start(), b.sup.start()]);
    const recorded = () =>
      readdirSync(stateDir)
        .filter((name) => name.startsWith('ledger-'))
        .flatMap((name) => {
          const data = readLedger(readFileSync(join(stateDir, name), 'utf8'));
          return (data.groups as Array<{ serverId: string }>).map((g) => g.serverId);
        })
        .sort();
    expect(recorded()).toEqual(['a', 'b']);
    await b.sup.stop();
    // a's server still runs, so a crash of this host now must still find it on disk.
    expect(recorded()).toEqual(['a']);
    expect(alive(a.sup.status()[0]!.pid!)).toBe(true);
  });
});
