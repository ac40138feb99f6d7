import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { liveGroups } from './ledger.js';

/** CPU time and resident memory of a server's whole process tree, and where the figures came from. */
export interface TreeUsage {
  cpuMs: number;
  rssBytes: number;
  processes: number;
  /** `cgroup`: the server's own cgroup's counters; `pgroup`: summed over its process group's members in /proc. */
  from: 'cgroup' | 'pgroup';
}

// USER_HZ is 100 on every Linux Node runs on; /proc reports times in it.
const TICK_MS = 10;
const PAGE_BYTES = 4096;

/**
 * What the tree of the server whose leader is `pid` uses now: from its cgroup when it is contained in one (it
 * counts every descendant, including those that left the group), else by walking /proc for the members of its
 * process group. Undefined when nothing of it is left.
 */
export function treeUsage(pid: number): TreeUsage | undefined {
  const cgroup = liveGroups().find((g) => g.pgid === pid)?.cgroup;
  if (cgroup !== undefined) {
    const usage = cgroupUsage(cgroup);
    if (usage) return usage;
  }
  return groupUsage(pid);
}

function cgroupUsage(dir: string): TreeUsage | undefined {
  try {
    const stat = readFileSync(join(dir, 'cpu.stat'), 'utf8');
    const usec = Number(/^usage_usec (\d+)$/m.exec(stat)?.[1] ?? Number.NaN);
    const memory = readFileSync(join(dir, 'memory.stat'), 'utf8');
    // Resident memory is anonymous plus file-backed pages mapped in; memory.current also counts page cache.
    const anon = Number(/^anon (\d+)$/m.exec(memory)?.[1] ?? 0);
    const mapped = Number(/^file_mapped (\d+)$/m.exec(memory)?.[1] ?? 0);
    const procs = readFileSync(join(dir, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean).length;
    if (!Number.isFinite(usec)) return undefined;
    return { cpuMs: Math.round(usec / 1000), rssBytes: anon + mapped, processes: procs, from: 'cgroup' };
  } catch {
    return undefined;
  }
}

function groupUsage(pgid: number): TreeUsage | undefined {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return undefined;
  }
  let ticks = 0;
  let pages = 0;
  let processes = 0;
  for (const entry of entries) {
    if (entry.charCodeAt(0) < 48 || entry.charCodeAt(0) > 57) continue;
    let text: string;
    try {
      text = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    // The command name may hold spaces and parentheses: the fields start after the last ')'.
    const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
    if (Number(f[2]) !== pgid || f[0] === 'Z' || f[0] === 'X') continue;
    ticks += Number(f[11]) + Number(f[12]);
    pages += Number(f[21]);
    processes++;
  }
  if (processes === 0) return undefined;
  return { cpuMs: ticks * TICK_MS, rssBytes: pages * PAGE_BYTES, processes, from: 'pgroup' };
}
