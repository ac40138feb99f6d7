import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import {
  cgroupBase,
  cgroupPopulated,
  isOurCgroup,
  killCgroup,
  removeCgroup,
  removeDeadOwnerDirs,
} from './cgroup.js';
import {
  groupMembers,
  type LedgerEntry,
  procStat,
  sameProcess,
  signalGroup,
  signalPid,
  watchLedger,
} from './ledger.js';
import { parseLedgerEntry } from './ledger-entry.js';
import { type LedgerHeader, LedgerJournal, type ReadLedger, readLedger } from './ledger-journal.js';

/** A ledger file as an older version wrote it, in one object (still read, see {@link readLedger}). */
export interface LedgerFile extends LedgerHeader {
  groups: LedgerEntry[];
}

/** What the next start found of a dead host, one per server (or file), as data with a code. */
export interface OrphanFinding {
  server: string | null;
  /**
   * `REAPED` (killed: its cgroup, its namespace's init or its verified leader), `IGNORED_UNPARSABLE`,
   * `IGNORED_UNSAFE_PGID` (pgid 0, 1 or our own), `NOT_PROVABLY_OURS` (its leader is gone and no cgroup holds the
   * rest: the group id may have been reused, so nothing is signalled).
   */
  code: 'REAPED' | 'IGNORED_UNPARSABLE' | 'IGNORED_UNSAFE_PGID' | 'NOT_PROVABLY_OURS';
  detail: string;
}

// `.json` is the one-object format of older versions, which a crashed host of one may have left.
const LEDGER_FILE = /^ledger-\d+(-[a-z0-9]+)?\.jsonl?$/;
const hostStart = () => procStat(process.pid)?.startTime ?? null;
// Synchronous: reaping runs once, inside start(), before any actor; a cgroup empties within milliseconds of
// cgroup.kill, and the wait is bounded.
const pause = new Int32Array(new SharedArrayBuffer(4));
const sleepSync = (ms: number) => Atomics.wait(pause, 0, 0, ms);

/**
 * Keeps one supervisor instance's ledger on disk, in a file of its own (`ledger-<pid>-<owner>.json`), so that after
 * a host crash (SIGKILL: no exit hook runs) the next supervisor using the same directory can reap what it left, and
 * so that two supervisors sharing the directory never overwrite or delete each other's record.
 */
export function persistLedger(dir: string, owner: string): () => void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const journal = new LedgerJournal(join(dir, `ledger-${process.pid}-${owner}.jsonl`), {
    host: { pid: process.pid, procStart: hostStart() },
    owner,
  });
  const stop = watchLedger((change) => {
    if (change.kind === 'drop') journal.drop(change.pgid);
    else if (change.entry.owner === owner) journal.set(change.entry);
  });
  return () => {
    stop();
    journal.close();
  };
}

/**
 * Reaps what dead hosts recorded in `dir`. Only what is provably ours is killed: the members of a cgroup we
 * created (cgroup.kill), a namespace init or a group leader whose pid still has the start time recorded. A live
 * host's file, this process's other supervisors' included, is left alone. Empty cgroups of dead hosts are removed.
 */
export function reapOrphans(dir: string): OrphanFinding[] {
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => LEDGER_FILE.test(f));
  } catch {
    return [];
  }
  const findings: OrphanFinding[] = [];
  for (const file of files) {
    const path = join(dir, file);
    let data: ReadLedger;
    try {
      data = readLedger(readFileSync(path, 'utf8'));
    } catch (err) {
      findings.push({
        server: null,
        code: 'IGNORED_UNPARSABLE',
        detail: `${file}: ${(err as Error).message}`,
      });
      rmSync(path, { force: true });
      continue;
    }
    const host = data.header.host;
    if (typeof host?.pid !== 'number') {
      findings.push({ server: null, code: 'IGNORED_UNPARSABLE', detail: `${file}: no host` });
      rmSync(path, { force: true });
      continue;
    }
    if (hostAlive(host)) continue;
    for (const line of data.unreadable)
      findings.push({ server: null, code: 'IGNORED_UNPARSABLE', detail: `${file}: ${line}` });
    for (const raw of data.groups) {
      const parsed = parseLedgerEntry(raw);
      if (!parsed.ok) {
        findings.push({
          server: parsed.server,
          code: `IGNORED_${parsed.code}`,
          detail: `${file}: ${parsed.detail}`,
        });
        continue;
      }
      const finding = reapEntry(parsed.entry);
      if (finding) findings.push(finding);
    }
    rmSync(path, { force: true });
  }
  const base = cgroupBase();
  if (base !== null) removeDeadOwnerDirs(base, (pid) => procStat(pid)?.state !== undefined);
  return findings;
}

function reapEntry(g: LedgerEntry): OrphanFinding | undefined {
  const reaped = (how: string): OrphanFinding => ({ server: g.serverId, code: 'REAPED', detail: how });
  let how: string | undefined;
  if (g.cgroup !== undefined && existsSync(g.cgroup)) {
    if (!isOurCgroup(g.cgroup)) {
      return {
        server: g.serverId,
        code: 'IGNORED_UNPARSABLE',
        detail: `cgroup ${g.cgroup} is not one of ours`,
      };
    }
    if (cgroupPopulated(g.cgroup)) {
      killCgroup(g.cgroup);
      for (let i = 0; i < 200 && cgroupPopulated(g.cgroup); i++) sleepSync(10);
      how = `cgroup ${g.cgroup} killed`;
    }
    removeCgroup(g.cgroup);
  }
  if (g.init && sameProcess(g.init.pid, g.init.procStart)) {
    signalPid(g.init.pid, 'SIGKILL');
    how ??= `pid namespace of init ${g.init.pid} killed`;
  }
  if (sameProcess(g.pgid, g.procStart)) {
    signalGroup(g.pgid, 'SIGKILL');
    how ??= `process group ${g.pgid} killed`;
  } else if (g.cgroup === undefined && !g.init && groupMembers(g.pgid, g.procStart ?? 0).length > 0) {
    return {
      server: g.serverId,
      code: 'NOT_PROVABLY_OURS',
      detail: `group ${g.pgid} lingers without its leader; its id may have been reused, so it is left alone`,
    };
  }
  return how ? reaped(how) : undefined;
}

/** True while the host that wrote a ledger still runs (the same pid, started at the same time). */
export function hostAlive(host: LedgerHeader['host']): boolean {
  const stat = procStat(host.pid);
  if (!stat || stat.state === 'Z') return false;
  return host.procStart === null || stat.startTime === host.procStart;
}
