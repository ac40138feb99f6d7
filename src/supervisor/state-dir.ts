import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { groupAlive, type LedgerEntry, procStat, signalGroup, watchLedger } from './process-ledger.js';

interface LedgerFile {
  host: { pid: number; procStart: number | null };
  groups: LedgerEntry[];
}

const hostStart = () => procStat(process.pid)?.startTime ?? null;
const fileName = (pid: number) => `ledger-${pid}.json`;

/**
 * Keeps this host's process-group ledger on disk, so that after a host crash (SIGKILL: no exit hook runs) the next
 * supervisor using the same state directory can reap whatever the dead host left running.
 */
export function persistLedger(dir: string): () => void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const path = join(dir, fileName(process.pid));
  const host = { pid: process.pid, procStart: hostStart() };
  const stop = watchLedger((groups) => {
    if (groups.length === 0) {
      rmSync(path, { force: true });
      return;
    }
    const data: LedgerFile = { host, groups };
    const tmp = `${path}.tmp`;
    writeFileSync(tmp, JSON.stringify(data), { mode: 0o600 });
    renameSync(tmp, path);
  });
  return () => {
    stop();
    rmSync(path, { force: true });
  };
}

/**
 * Reaps the groups that dead hosts recorded in `dir` and that are still alive. A group is killed only when its
 * leader is the very process we spawned (same start time) or the leader is gone and its group lingers; a live host's
 * file is left alone. Returns the server ids reaped.
 */
export function reapOrphans(dir: string): string[] {
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => /^ledger-\d+\.json$/.test(f));
  } catch {
    return [];
  }
  const reaped: string[] = [];
  for (const file of files) {
    const path = join(dir, file);
    let data: LedgerFile;
    try {
      data = JSON.parse(readFileSync(path, 'utf8')) as LedgerFile;
    } catch {
      rmSync(path, { force: true });
      continue;
    }
    if (data.host.pid === process.pid || hostAlive(data.host)) continue;
    for (const g of data.groups ?? []) {
      if (!isOurs(g) || !groupAlive(g.pgid)) continue;
      signalGroup(g.pgid, 'SIGKILL');
      reaped.push(g.serverId);
    }
    rmSync(path, { force: true });
  }
  return reaped;
}

function hostAlive(host: LedgerFile['host']): boolean {
  const stat = procStat(host.pid);
  if (!stat || stat.state === 'Z') return false;
  return host.procStart === null || stat.startTime === host.procStart;
}

function isOurs(g: LedgerEntry): boolean {
  const leader = procStat(g.pgid);
  // The leader's pid now names another process: a reused pid, never ours to kill.
  if (leader && leader.state !== 'Z') return g.procStart !== undefined && leader.startTime === g.procStart;
  return true;
}
