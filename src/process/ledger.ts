import { readdirSync, readFileSync } from 'node:fs';
import { cgroupPopulated, killCgroup, removeCgroup } from './cgroup.js';

/**
 * Every live process group this library started, module-wide. XState does not supervise and an errored
 * parent never stops its children, so reaping must not depend on any actor's state: it depends on this.
 */
export interface LedgerEntry {
  /** The leader's pid, which is also its process group's id. */
  pgid: number;
  serverId: string;
  startedAt: number;
  /** The leader's start time in clock ticks since boot (/proc), so a reused pid is never mistaken for ours. */
  procStart?: number;
  /** The supervisor instance that spawned it: each instance keeps its own file on disk. */
  owner?: string;
  containment?: 'cgroup' | 'pidns' | 'pgroup';
  /** The cgroup the server and everything it starts run in (`cgroup` containment). */
  cgroup?: string;
  /** The pid namespace's init, in our namespace's numbering (`pidns` containment). */
  init?: { pid: number; procStart: number };
}

/** One change to the ledger: a group recorded (or what is known of it grown), or a group forgotten. */
export type LedgerChange = { kind: 'set'; entry: LedgerEntry } | { kind: 'drop'; pgid: number };

const live = new Map<number, LedgerEntry>();
const sinks = new Set<(change: LedgerChange) => void>();

/** Records a freshly spawned process group. */
export function recordGroup(entry: LedgerEntry): void {
  const procStart = procStat(entry.pgid)?.startTime;
  const recorded = procStart !== undefined ? { ...entry, procStart } : entry;
  live.set(entry.pgid, recorded);
  notify({ kind: 'set', entry: recorded });
}

/** Adds what was learnt after the spawn (a namespace's init) to a recorded group. */
export function updateGroup(pgid: number, patch: Partial<LedgerEntry>): void {
  const entry = live.get(pgid);
  if (!entry) return;
  const next = { ...entry, ...patch };
  live.set(pgid, next);
  notify({ kind: 'set', entry: next });
}

/** Forgets a group once nothing of it is left alive. */
export function forgetGroup(pgid: number): void {
  if (live.delete(pgid)) notify({ kind: 'drop', pgid });
}

/**
 * Adds an observer of the ledger (the on-disk copy that survives a host crash): it hears every group recorded now,
 * then each change as it happens — one group at a time, so keeping a copy costs the change, not the fleet.
 * Returns its removal.
 */
export function watchLedger(sink: (change: LedgerChange) => void): () => void {
  sinks.add(sink);
  for (const entry of live.values()) sink({ kind: 'set', entry });
  return () => sinks.delete(sink);
}

function notify(change: LedgerChange): void {
  for (const sink of sinks) sink(change);
}

/** The groups still recorded as live (a copy). */
export function liveGroups(): LedgerEntry[] {
  return [...live.values()];
}

/** Sends `signal` to a whole process group; false when the group is already gone (or must never be signalled). */
export function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  if (unsafeGroup(pgid)) return false;
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

/** Sends `signal` to one pid; false when it is gone. */
export function signalPid(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(pid, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * True while any process of the group is alive. A zombie is not alive: an init that reaps slowly would otherwise
 * make a dead group look alive for seconds, so on Linux the members are read from /proc.
 */
export function groupAlive(pgid: number): boolean {
  if (!signalGroup(pgid, 0)) return false;
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return true;
  }
  for (const entry of entries) {
    if (entry.charCodeAt(0) < 48 || entry.charCodeAt(0) > 57) continue;
    const stat = procStat(Number(entry));
    if (stat && stat.pgrp === pgid && stat.state !== 'Z' && stat.state !== 'X') return true;
  }
  return false;
}

/** What /proc/<pid>/stat says of a pid, or undefined when it is gone or unreadable. */
export function procStat(
  pid: number,
): { state: string; ppid: number; pgrp: number; startTime: number } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may hold spaces and parentheses: the fields start after the last ')'.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return {
      state: fields[0] ?? '',
      ppid: Number(fields[1]),
      pgrp: Number(fields[2]),
      startTime: Number(fields[19]),
    };
  } catch {
    return undefined;
  }
}

/** True when `pid` is alive (not a zombie) and is the very process that started at `procStart`. */
export function sameProcess(pid: number, procStart: number | undefined): boolean {
  const stat = procStat(pid);
  return stat !== undefined && stat.state !== 'Z' && stat.state !== 'X' && stat.startTime === procStart;
}

/**
 * The live members of group `pgid` that started no earlier than `since` (the leader's start), with their start
 * times: a process in the group that is older than its leader cannot be one of its descendants.
 */
export function groupMembers(pgid: number, since: number): Array<{ pid: number; startTime: number }> {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  const out: Array<{ pid: number; startTime: number }> = [];
  for (const entry of entries) {
    if (entry.charCodeAt(0) < 48 || entry.charCodeAt(0) > 57) continue;
    const stat = procStat(Number(entry));
    if (stat && stat.pgrp === pgid && stat.state !== 'Z' && stat.state !== 'X' && stat.startTime >= since)
      out.push({ pid: Number(entry), startTime: stat.startTime });
  }
  return out;
}

/** The live children of `pid` (a namespace's init is the only child of `unshare --fork`). */
export function childrenOf(pid: number): number[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  return entries
    .filter((e) => e.charCodeAt(0) >= 48 && e.charCodeAt(0) <= 57)
    .map(Number)
    .filter((p) => {
      const stat = procStat(p);
      return stat !== undefined && stat.ppid === pid && stat.state !== 'Z';
    });
}

/** Clock ticks since boot now, in the unit of /proc/<pid>/stat start times (USER_HZ, 100 on Linux). */
export function uptimeTicks(): number {
  try {
    return Math.floor(Number(readFileSync('/proc/uptime', 'utf8').split(' ')[0]) * 100);
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

/** A group id that must never be signalled as a whole: 0 and 1 mean "my group" and "everything", and our own. */
export function unsafeGroup(pgid: number): boolean {
  return (
    !Number.isSafeInteger(pgid) || pgid <= 1 || pgid === process.pid || pgid === procStat(process.pid)?.pgrp
  );
}

/**
 * SIGKILLs every recorded server at once, synchronously (safe inside a process `exit` handler), then removes their
 * cgroups once empty (a bounded wait: cgroup.kill empties one within milliseconds); returns how many were signalled.
 */
export function reapAll(): number {
  let n = 0;
  const cgroups: string[] = [];
  for (const entry of live.values()) {
    if (entry.cgroup !== undefined) cgroups.push(entry.cgroup);
    // The group as well as the cgroup: a server spawned a moment ago may not have joined its cgroup yet.
    const killed = entry.cgroup !== undefined && killCgroup(entry.cgroup);
    if ((!unsafeGroup(entry.pgid) && signalGroup(entry.pgid, 'SIGKILL')) || killed) n++;
    if (entry.init && sameProcess(entry.init.pid, entry.init.procStart)) signalPid(entry.init.pid, 'SIGKILL');
    live.delete(entry.pgid);
    notify({ kind: 'drop', pgid: entry.pgid });
  }
  const deadline = Date.now() + 1000;
  for (const dir of cgroups) {
    while (cgroupPopulated(dir) && Date.now() < deadline) Atomics.wait(pause, 0, 0, 5);
    removeCgroup(dir);
  }
  return n;
}

const pause = new Int32Array(new SharedArrayBuffer(4));

let hooksInstalled = false;

/**
 * Opt-in host hooks: reap every group on `exit`, and on SIGINT/SIGTERM reap then let the signal end the host
 * as it would have. Returns a function that removes them.
 */
export function installReapHooks(): () => void {
  if (hooksInstalled) return () => {};
  hooksInstalled = true;
  const onExit = () => void reapAll();
  const onSignal = (signal: NodeJS.Signals) => {
    reapAll();
    remove();
    process.kill(process.pid, signal);
  };
  process.on('exit', onExit);
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const remove = () => {
    process.off('exit', onExit);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    hooksInstalled = false;
  };
  return remove;
}
