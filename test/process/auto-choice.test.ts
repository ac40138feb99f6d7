import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { cgroupBase } from '../../src/process/cgroup.js';
import { chooseContainment } from '../../src/process/containment.js';

const base = cgroupBase();
const unavailable =
  process.getuid?.() !== 0
    ? 'not root'
    : base === null
      ? 'no writable cgroup hierarchy to take away'
      : spawnSync('unshare', ['--mount', 'true'], { stdio: 'ignore' }).status !== 0
        ? 'unshare --mount failed'
        : undefined;
if (unavailable) console.log(`auto-choice fallbacks skipped: ${unavailable}`);

const CHOOSE = `"${process.execPath}" --import tsx -e 'import("./src/process/containment.ts").then((m) => console.log(m.chooseContainment("auto")))'`;

/** What `auto` picks in a private mount namespace after `setup` took something away. */
function chooseAfter(setup: string): string {
  const run = spawnSync('unshare', ['--mount', 'sh', '-c', `${setup} && exec ${CHOOSE}`], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  return run.stdout.trim() || run.stderr;
}

const readOnlyCgroups = `mount --bind -o ro "${base}" "${base}" && mount -o remount,bind,ro "${base}"`;
const noUnshare =
  'for f in /usr/bin/unshare /bin/unshare /usr/sbin/unshare /sbin/unshare; do [ -e $f ] && mount --bind /dev/null $f; done; true';

describe('auto takes the strongest mechanism the machine offers', () => {
  it.skipIf(base === null)('cgroup where a writable cgroup v2 hierarchy exists', () => {
    expect(chooseContainment('auto')).toBe('cgroup');
  });

  it.skipIf(unavailable !== undefined)('pidns when the cgroup hierarchy is read-only', () => {
    expect(chooseAfter(readOnlyCgroups)).toBe('pidns');
  });

  it.skipIf(unavailable !== undefined)('pgroup when unshare(1) is gone as well', () => {
    expect(chooseAfter(`${readOnlyCgroups} && ${noUnshare}`)).toBe('pgroup');
  });
});
