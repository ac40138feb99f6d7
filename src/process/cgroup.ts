import {
  accessSync,
  constants,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmdirSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join, normalize } from 'node:path';

/** Every cgroup this library creates is named so; nothing else under the base is ever touched. */
export const CGROUP_PREFIX = 'mcp-supervisor-';

/** `mcp-supervisor-<hostpid>-<owner>`: the directory of one supervisor instance. */
const OWNER_DIR = /^mcp-supervisor-(\d+)-([a-z0-9]+)$/;
/** `<serverId>-<n>`: one spawn's leaf. */
const LEAF_DIR = /^[a-z0-9_-]+-\d+$/;

let probed: string | null | undefined;

/**
 * The directory under which this process may create cgroups that can be killed as a whole, or null. Probed once:
 * a cgroup2 mount whose child cgroups get `cgroup.kill` (Linux 5.14+), under the host's own cgroup when that is
 * writable (a delegated subtree), else the mount's root.
 */
export function cgroupBase(): string | null {
  if (probed === undefined) probed = probe();
  return probed;
}

function probe(): string | null {
  let mounts: string[];
  let own = '/';
  try {
    mounts = readFileSync('/proc/self/mounts', 'utf8')
      .split('\n')
      .map((line) => line.split(' '))
      .filter((f) => f[2] === 'cgroup2' && f[1] !== undefined)
      .map((f) => unescapeMount(f[1]!));
    const line = readFileSync('/proc/self/cgroup', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('0::'));
    if (line) own = line.slice(3) || '/';
  } catch {
    return null;
  }
  for (const mount of mounts) {
    const candidates = own === '/' ? [mount] : [join(mount, own), mount];
    for (const base of candidates) if (usable(base)) return base;
  }
  return null;
}

/** Creates and removes a probe child: only a real child shows whether `cgroup.kill` exists and mkdir is allowed. */
function usable(base: string): boolean {
  const dir = join(base, `${CGROUP_PREFIX}probe-${process.pid}`);
  try {
    accessSync(join(base, 'cgroup.procs'), constants.W_OK);
    mkdirSync(dir);
  } catch {
    return false;
  }
  try {
    return existsSync(join(dir, 'cgroup.kill')) && existsSync(join(dir, 'cgroup.events'));
  } finally {
    try {
      rmdirSync(dir);
    } catch {}
  }
}

/** /proc/self/mounts escapes spaces and a few others as octal. */
function unescapeMount(path: string): string {
  return path.replace(/\\([0-7]{3})/g, (_, oct: string) => String.fromCharCode(Number.parseInt(oct, 8)));
}

/** Creates `<base>/mcp-supervisor-<hostpid>-<owner>/<leaf>` and returns its path. Throws on failure. */
export function createCgroup(base: string, owner: string, leaf: string): string {
  const parent = join(base, `${CGROUP_PREFIX}${process.pid}-${owner}`);
  mkdirSync(parent, { recursive: true });
  const dir = join(parent, leaf);
  mkdirSync(dir);
  return dir;
}

/**
 * True when `dir` is a leaf this library would have created (`<base>/mcp-supervisor-<pid>-<owner>/<server>-<n>`)
 * under a cgroup2 hierarchy. A ledger that names anything else is never acted on.
 */
export function isOurCgroup(dir: string): boolean {
  if (typeof dir !== 'string' || !dir.startsWith('/') || normalize(dir) !== dir) return false;
  if (!LEAF_DIR.test(basename(dir)) || !OWNER_DIR.test(basename(dirname(dir)))) return false;
  return existsSync(join(dir, 'cgroup.kill'));
}

/** The pids in a cgroup (empty when it is gone). */
export function cgroupPids(dir: string): number[] {
  try {
    return readFileSync(join(dir, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** Whether any process is in the cgroup or below; false when it is gone. */
export function cgroupPopulated(dir: string): boolean {
  try {
    return /^populated 1$/m.test(readFileSync(join(dir, 'cgroup.events'), 'utf8'));
  } catch {
    return false;
  }
}

/** SIGKILLs every process in the cgroup and below, at once (synchronous: safe in an exit handler). */
export function killCgroup(dir: string): boolean {
  try {
    writeFileSync(join(dir, 'cgroup.kill'), '1');
    return true;
  } catch {
    return false;
  }
}

/** Sends `signal` to each member (one by one: only cgroup.kill is atomic, and it only kills). */
export function signalCgroup(dir: string, signal: NodeJS.Signals): void {
  for (const pid of cgroupPids(dir)) {
    try {
      process.kill(pid, signal);
    } catch {}
  }
}

/** Removes an empty leaf and, when it was the last, its owner directory; false when something is still inside. */
export function removeCgroup(dir: string): boolean {
  try {
    rmdirSync(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') return false;
  }
  removeOwnerDir(dirname(dir));
  return true;
}

/** Removes an owner directory when no leaf is left in it. */
export function removeOwnerDir(parent: string): void {
  if (!OWNER_DIR.test(basename(parent))) return;
  try {
    rmdirSync(parent);
  } catch {}
}

/**
 * Removes the empty owner directories under `base` whose host process is gone (a host killed with SIGKILL cannot
 * clean up); a populated one is left to the ledger, which knows whether its processes are ours. Returns how many.
 */
export function removeDeadOwnerDirs(base: string, hostAlive: (pid: number) => boolean): number {
  let names: string[];
  try {
    names = readdirSync(base);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    const m = OWNER_DIR.exec(name);
    if (!m || Number(m[1]) === process.pid || hostAlive(Number(m[1]))) continue;
    const parent = join(base, name);
    let leaves: string[] = [];
    try {
      leaves = readdirSync(parent, { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .map((d) => d.name);
    } catch {
      continue;
    }
    if (leaves.some((leaf) => cgroupPopulated(join(parent, leaf)))) continue;
    for (const leaf of leaves) {
      try {
        rmdirSync(join(parent, leaf));
      } catch {}
    }
    try {
      rmdirSync(parent);
      removed++;
    } catch {}
  }
  return removed;
}
