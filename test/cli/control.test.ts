import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StatusData } from '../../src/cli/control/status-command.js';
import { request } from '../../src/control/client.js';
import { socketFiles } from '../../src/control/socket-dir.js';
import {
  alive,
  allGone,
  type CliProcess,
  cliProcesses,
  ensureBuilt,
  pidOf,
  sleep,
  writeFixtureConfig,
} from './helpers.js';

// One fleet for the whole file: each command is run against it from another process, as from another terminal.
const cli = cliProcesses();
let dir: string;
let state: string;
let fleet: CliProcess;

beforeAll(async () => {
  await ensureBuilt();
  dir = cli.tempDir();
  state = join(dir, 'state');
  const config = writeFixtureConfig(
    dir,
    [{ id: 'fx', flags: ['--grandchild'] }, { id: 'fy' }],
    'supervisor:\n  logs: { ring: 64KiB, files: { keep: 2, size: 64KiB } }\n',
  );
  fleet = cli.spawnCli(['run', config, '--trust-all', '--state-dir', state]);
  await fleet.waitFor(/event=log msg=started/);
}, 120_000);
afterAll(cli.reap);

const ctl = (...args: string[]) => cli.runCli([...args, '--state-dir', state]);

async function status(): Promise<StatusData> {
  const r = await ctl('status', '--json');
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as StatusData;
}

const rowOf = (s: StatusData, id: string) => s.servers.find((r) => r.id === id)!;

/** The status straight from the socket, for polling (the command itself is tested above). */
async function socketStatus(): Promise<StatusData> {
  const [path] = socketFiles(state);
  const r = await request(path!, { cmd: 'status' });
  if (!r.ok || !r.answer.ok) throw new Error(`status failed: ${JSON.stringify(r)}`);
  return r.answer.data as StatusData;
}

/** Polls status until `ok` holds for the row of `id`; fails the test after a bound. */
async function until(id: string, ok: (row: StatusData['servers'][number]) => boolean, ms = 8000) {
  const end = Date.now() + ms;
  for (;;) {
    const row = rowOf(await socketStatus(), id);
    if (ok(row)) return row;
    if (Date.now() > end) throw new Error(`${id} never got there: ${JSON.stringify(row)}`);
    await sleep(100);
  }
}

describe('control of a running fleet from another terminal', () => {
  it('status --json gives each server its live pid and its process tree CPU and RSS', async () => {
    const s = await status();
    expect(s.instance).toMatchObject({
      pid: fleet.child.pid,
      command: 'run',
      config: join(dir, 'fleet.yaml'),
    });
    expect(s.servers.map((r) => [r.id, r.state])).toEqual([
      ['fx', 'ready'],
      ['fy', 'ready'],
    ]);
    for (const row of s.servers) {
      expect(row.pid).toBe(await pidOf(dir, row.id));
      expect(alive(row.pid!)).toBe(true);
      expect(row.usage!.rssBytes).toBeGreaterThan(1024 * 1024);
      expect(row.usage!.from).toBe(row.containment === 'cgroup' ? 'cgroup' : 'pgroup');
      expect(row.usage!.cpuMs).toBeGreaterThanOrEqual(0);
      expect(row.tools).toBeGreaterThan(0);
    }
    // fx started a grandchild: the whole tree is counted (a pid namespace's init, where there is one, in both).
    expect(rowOf(s, 'fx').usage!.processes).toBe(rowOf(s, 'fy').usage!.processes + 1);
    const text = await ctl('status');
    expect(text.code).toBe(0);
    const lines = text.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(new RegExp(`^run .*fleet\\.yaml \\(pid ${fleet.child.pid}, up `));
    expect(lines[1]).toMatch(/^ID\s+STATE\s+PID\s+RESTARTS\s+UPTIME\s+TOOLS\s+CPU\s+RSS\s+LAST EXIT$/);
    expect(lines[2]).toMatch(
      new RegExp(`^fx\\s+ready\\s+${rowOf(s, 'fx').pid}\\s+0\\s+\\S+\\s+\\d+\\s+\\S+s\\s+\\S+iB\\s+-$`),
    );
  });

  it('logs prints the stderr lines a server wrote; logs --follow then streams the next ones', async () => {
    const pid = rowOf(await socketStatus(), 'fx').pid!;
    const r = await ctl('logs', 'fx');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^\\S+Z fixture\\[${pid}\\]: `, 'm'));
    const follow = cli.spawnCli(['logs', 'fx', '--follow', '--state-dir', state]);
    await follow.waitFor(new RegExp(`fixture\\[${pid}\\]`), 10_000, 'stdout');
    const restart = await ctl('restart', 'fx');
    expect(restart.code, restart.stderr).toBe(0);
    const next = await until('fx', (row) => row.state === 'ready' && row.pid !== pid);
    // The new process's first lines reach the follower without asking again.
    await follow.waitFor(new RegExp(`fixture\\[${next.pid}\\]`), 10_000, 'stdout');
    expect(await allGone([pid])).toBe(true);
    const json = await ctl('logs', 'fx', '--json');
    const entries = json.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(entries.at(-1)).toMatchObject({ source: 'stderr', line: expect.stringMatching(/^fixture\[/) });
    // supervisor.logs.files: the same entries, as JSON lines, in the state directory.
    const file = readFileSync(join(state, 'logs', 'fx.log'), 'utf8');
    expect(file).toContain(`fixture[${pid}]`);
    expect(file).toContain(`fixture[${next.pid}]`);
  });

  it('restart gives a new pid and ends the old one; stop and start act on one server', async () => {
    const before = rowOf(await socketStatus(), 'fy');
    expect((await ctl('restart', 'fy')).code).toBe(0);
    const after = await until('fy', (row) => row.state === 'ready' && row.pid !== before.pid);
    expect(alive(after.pid!)).toBe(true);
    expect(await allGone([before.pid!])).toBe(true);

    const stop = await ctl('stop', 'fy');
    expect([stop.code, stop.stdout, stop.stderr]).toEqual([0, 'fy: stopping\n', '']);
    await until('fy', (row) => row.state === 'stopped');
    expect(await allGone([after.pid!])).toBe(true);
    expect(rowOf(await socketStatus(), 'fx').state).toBe('ready');

    expect((await ctl('start', 'fy')).code).toBe(0);
    const started = await until('fy', (row) => row.state === 'ready');
    expect(started.pid).not.toBe(after.pid);
    expect(alive(started.pid!)).toBe(true);
  });

  it('answers an unknown server with its code, as text and as data', async () => {
    const text = await ctl('restart', 'nope');
    expect([text.code, text.stderr]).toEqual([
      1,
      "mcp-supervisor: unknown server 'nope' (servers: fx, fy)\n",
    ]);
    const json = await ctl('stop', 'nope', '--json');
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toEqual({
      v: 1,
      ok: false,
      code: 'UNKNOWN_SERVER',
      servers: ['fx', 'fy'],
    });
    expect((await ctl('logs', 'nope')).code).toBe(1);
  });

  it('ends a follower and removes its socket when the fleet stops', async () => {
    const sockets = readdirSync(state).filter((f) => f.endsWith('.sock'));
    expect(sockets).toHaveLength(1);
    const follow = cli.spawnCli(['logs', 'fx', '-f', '--state-dir', state]);
    await follow.waitFor(/fixture\[/, 10_000, 'stdout');
    fleet.child.kill('SIGINT');
    expect((await fleet.exited).code).toBe(0);
    expect((await follow.exited).code).toBe(0);
    expect(existsSync(join(state, sockets[0]!))).toBe(false);
    const none = await ctl('status');
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(
      /^mcp-supervisor: no mcp-supervisor is running with state directory .*state; /,
    );
  });
});
