import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cgroupBase } from '../../src/process/cgroup.js';
import { tempDir } from '../supervisor/helpers.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

const base = cgroupBase();
// In a private mount namespace the cgroup hierarchy is remounted read-only: a machine without writable cgroups,
// made for real, for this one process tree.
const script = (cli: string) =>
  `mount --bind -o ro "${base}" "${base}" && mount -o remount,bind,ro "${base}" && exec ${cli}`;
const unavailable =
  process.getuid?.() !== 0
    ? 'not root'
    : base === null
      ? 'no writable cgroup hierarchy to take away'
      : spawnSync('unshare', ['--mount', 'sh', '-c', script('true')], { stdio: 'ignore' }).status !== 0
        ? 'unshare --mount failed'
        : undefined;
if (unavailable) console.log(`containment-unavailable test skipped: ${unavailable}`);

function runCli(args: string[]) {
  const cli = `"${process.execPath}" --import tsx src/cli/main.ts ${args.map((a) => `'${a}'`).join(' ')}`;
  return spawnSync('unshare', ['--mount', 'sh', '-c', script(cli)], { encoding: 'utf8', timeout: 60_000 });
}

describe.skipIf(unavailable !== undefined)('a config that forces a containment this machine lacks', () => {
  it('check locates it at supervisor.containment; run says so in one line and exits 1', () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const path = join(t.dir, 'fleet.yaml');
    writeFileSync(
      path,
      'supervisor:\n  containment: cgroup\nservers:\n  a: { command: node, args: [-e, "1"] }\n',
    );
    const check = runCli(['check', path]);
    expect(check.status).toBe(1);
    expect(check.stderr).toMatch(
      new RegExp(
        `^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:2:3 supervisor\\.containment: containment cgroup is not available`,
        'm',
      ),
    );
    const run = runCli(['run', path, '--trust-all', '--state-dir', join(t.dir, 'state')]);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/^mcp-supervisor: containment cgroup is not available: .*$/m);
    expect(run.stderr).not.toMatch(/internal error|\n\s+at /);
  });
});
