import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cgroupPids } from './cgroup.js';
import { liveGroups } from './ledger.js';

/** CPU time and resident memory of a server's whole process tree, and where the figures came from. */
export interface TreeUsage {
  cpuMs: number;
  rssBytes: number;
  processes: number;
  /**
   * `cgroup`: the members of the server's own cgroup (every descendant, also one that left the process group),
   * with the cgroup's own CPU counter; `pgroup`: the members of its process group found in /proc; `engine`: a
   * container engine's stats of the container (its memory is the cgroup's usage, page cache included).
   */
  from: 'cgroup' | 'pgroup' | 'engine';
}

// USER_HZ is 100 on every Linux Node runs on; /proc reports times in it.
const TICK_MS = 10;
const PAGE_BYTES = 4096;

interface ProcSum {
  ticks: number;
  pages: number;
  processes: number;
}

/**
 * What the tree of the server whose leader is `pid` uses now: its cgroup's members when it is contained in one,
 * else the members of its process group. Undefined when nothing of it is left.
 */
export function treeUsage(pid: number): TreeUsage | undefined {
  const cgroup = liveGroups().find((g) => g.pgid === pid)?.cgroup;
  if (cgroup !== undefined) {
    const usage = cgroupUsage(cgroup);
    if (usage) return usage;
  }
  const sum = sumStats(procPids(), (f) => Number(f[2]) === pid);
  if (sum.processes === 0) return undefined;
  return {
    cpuMs: sum.ticks * TICK_MS,
    rssBytes: sum.pages * PAGE_BYTES,
    processes: sum.processes,
    from: 'pgroup',
  };
}

function cgroupUsage(dir: string): TreeUsage | undefined {
  const pids = cgroupPids(dir);
  const sum = sumStats(pids, () => true);
  if (sum.processes === 0) return undefined;
  // The cgroup's counter also holds the CPU of members that already exited; /proc only that of the living.
  const usec = Number(/^usage_usec (\d+)$/m.exec(readOr(join(dir, 'cpu.stat')))?.[1]);
  return {
    cpuMs: Number.isFinite(usec) ? Math.round(usec / 1000) : sum.ticks * TICK_MS,
    rssBytes: sum.pages * PAGE_BYTES,
    processes: sum.processes,
    from: 'cgroup',
  };
}

/** Sums utime+stime and resident pages over the live (not zombie) pids whose stat fields pass `keep`. */
function sumStats(pids: Iterable<number>, keep: (fields: string[]) => boolean): ProcSum {
  const sum: ProcSum = { ticks: 0, pages: 0, processes: 0 };
  for (const pid of pids) {
    const text = readOr(`/proc/${pid}/stat`);
    if (text === '') continue;
    // The command name may hold spaces and parentheses: the fields start after the last ')'.
    const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
    if (f[0] === 'Z' || f[0] === 'X' || !keep(f)) continue;
    sum.ticks += Number(f[11]) + Number(f[12]);
    sum.pages += Number(f[21]);
    sum.processes++;
  }
  return sum;
}

function procPids(): number[] {
  try {
    return readdirSync('/proc')
      .filter((e) => e.charCodeAt(0) >= 48 && e.charCodeAt(0) <= 57)
      .map(Number);
  } catch {
    return [];
  }
}

function readOr(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}
