import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildChildEnv } from '../../src/process/child-env.js';
import type { ContainmentKind } from '../../src/process/containment.js';
import { Jail } from '../../src/process/jail.js';
import { FIXTURE } from '../supervisor/helpers.js';
import { killAll, mechanisms, survivors, waitForEscapees } from './escape-helpers.js';

const have = mechanisms();
const kinds = (Object.keys(have) as ContainmentKind[]).filter((k) => have[k]);

const cleanup: Array<() => void> = [];
afterEach(() => {
  for (const step of cleanup.splice(0).reverse()) step();
});

async function until<T>(what: string, probe: () => T | undefined, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

// The stop path asks jail.alive() after every exit and trusts a "no": a wrong "no" leaves processes behind. Each
// answer is checked against the members themselves, read after it: a member alive after a "no" was alive during it.
describe.each(kinds)('jail.alive() (%s)', (kind) => {
  it('never says gone while a member lives: a grandchild that ignores SIGTERM outlives the server', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'alive-check-'));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const pidFile = join(dir, 'pids.json');
    const escapeFile = join(dir, 'escaped');
    // Under a cgroup a member that left the group (setpgid) is still held; elsewhere it is out of scope.
    const loose = kind === 'cgroup' ? ['--escape', 'setpgid', '--escape-file', escapeFile] : [];
    const jail = Jail.open(kind, 'alivecheck', 'alive-check');
    const argv = jail.wrap(process.execPath, [FIXTURE, '--grandchild', '--pid-file', pidFile, ...loose], {
      ...buildChildEnv(process.env, [], {}),
    });
    const child: ChildProcess = spawn(argv.file, argv.args, {
      detached: true,
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    const exited = new Promise((r) => child.once('exit', r));
    let members: number[] = [];
    cleanup.push(() => {
      jail.kill();
      killAll(members);
      jail.release();
    });
    jail.attach(child.pid!);
    await until('the pid file', () => (existsSync(pidFile) ? true : undefined));
    const escaped = kind === 'cgroup' ? await waitForEscapees(escapeFile, 1) : [];
    // The server and its grandchild, and under pidns the unshare that holds the namespace too.
    const inside = kind === 'pidns' ? 3 : 2;
    members = [
      ...(await until('every member', () => (jail.pids().length >= inside ? jail.pids() : undefined))),
    ];
    members.push(...escaped.filter((p) => !members.includes(p)));

    const checked = () => {
      const answer = jail.alive();
      if (!answer) expect(survivors(members), 'alive() said gone while these lived').toEqual([]);
      return answer;
    };

    // The server exits when its stdin ends; what it started does not (but under pidns, where the namespace ends).
    child.stdin!.end();
    await exited;
    jail.leaderGone();
    if (kind !== 'pidns') {
      expect(checked()).toBe(true);
      jail.terminate();
      // Every member ignores SIGTERM, so the answer right after it must still be yes.
      expect(checked()).toBe(true);
    }
    if (kind === 'cgroup') {
      // With the group emptied, only the member that left it is left: the cgroup alone must still say yes.
      const { grandchild } = JSON.parse(readFileSync(pidFile, 'utf8')) as { grandchild: number };
      process.kill(grandchild, 'SIGKILL');
      await until('the grandchild to die', () => (survivors([grandchild]).length === 0 ? true : undefined));
      expect(checked()).toBe(true);
    }
    if (kind !== 'pidns') jail.kill();
    await until('alive() to say gone', () => (checked() ? undefined : true), 5000);
    expect(survivors(members)).toEqual([]);
    expect(jail.release()).toBe(true);
  });
});
