import { readdirSync, readFileSync } from 'node:fs';

/**
 * Every live process group this library started, module-wide. XState does not supervise and an errored
 * parent never stops its children, so reaping must not depend on any actor's state: it depends on this.
 */
export interface LedgerEntry {
  pgid: number;
  serverId: string;
  startedAt: number;
  /** The leader's start time in clock ticks since boot (/proc), so a reused pid is never mistaken for ours. */
  procStart?: number;
}

const live = new Map<number, LedgerEntry>();
const sinks = new Set<(groups: LedgerEntry[]) => void>();

/** Records a freshly spawned process group. */
export function recordGroup(entry: LedgerEntry): void {
  const procStart = procStat(entry.pgid)?.startTime;
  live.set(entry.pgid, procStart !== undefined ? { ...entry, procStart } : entry);
  notify();
}

/** Forgets a group once nothing of it is left alive. */
export function forgetGroup(pgid: number): void {
  if (live.delete(pgid)) notify();
}

/** Adds an observer of the ledger (the on-disk copy that survives a host crash); returns its removal. */
export function watchLedger(sink: (groups: LedgerEntry[]) => void): () => void {
  sinks.add(sink);
  sink(liveGroups());
  return () => sinks.delete(sink);
}

function notify(): void {
  const groups = liveGroups();
  for (const sink of sinks) sink(groups);
}

/** The groups still recorded as live (a copy). */
export function liveGroups(): LedgerEntry[] {
  return [...live.values()];
}

/** Sends `signal` to a whole process group; false when the group is already gone. */
export function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
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

/** State and process group of a pid from /proc/<pid>/stat, or undefined when it is gone or unreadable. */
export function procStat(pid: number): { state: string; pgrp: number; startTime: number } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may hold spaces and parentheses: the fields start after the last ')'.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0] ?? '', pgrp: Number(fields[2]), startTime: Number(fields[19]) };
  } catch {
    return undefined;
  }
}

/** SIGKILLs every recorded group at once, synchronously (safe inside a process `exit` handler); returns how many. */
export function reapAll(): number {
  let n = 0;
  for (const { pgid } of live.values()) {
    if (signalGroup(pgid, 'SIGKILL')) n++;
    live.delete(pgid);
  }
  notify();
  return n;
}

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
