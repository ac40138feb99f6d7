import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { procStat } from '../process/ledger.js';
import { hostAlive, type LedgerFile } from '../process/state-dir.js';
import { engineClient } from './engine-client.js';
import { engineFailure } from './engine-errors.js';
import { INSTANCE_LABEL, SERVER_LABEL } from './settings.js';

/** Engines each supervisor instance (owner) has made containers on, module-wide, as the process ledger is. */
const engines = new Map<string, Set<string>>();
const sinks = new Set<(owner: string) => void>();

/** Notes that `owner` is about to make a container on `engine` (before the create, so a crash cannot skip it). */
export function recordEngine(owner: string, engine: string): void {
  const set = engines.get(owner) ?? new Set<string>();
  engines.set(owner, set);
  if (set.has(engine)) return;
  set.add(engine);
  for (const sink of sinks) sink(owner);
}

interface ContainerLedgerFile {
  host: LedgerFile['host'];
  owner: string;
  engines: string[];
}

const FILE = /^containers-\d+-[a-z0-9]+\.json$/;

/**
 * Keeps, in the state directory, which engines this instance made containers on (`containers-<pid>-<owner>.json`):
 * after a host crash, the next start finds them there and removes by label what this instance left.
 */
export function persistContainerLedger(dir: string, owner: string): () => void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const path = join(dir, `containers-${process.pid}-${owner}.json`);
  const write = (who: string) => {
    if (who !== owner) return;
    const data: ContainerLedgerFile = {
      host: { pid: process.pid, procStart: procStat(process.pid)?.startTime ?? null },
      owner,
      engines: [...(engines.get(owner) ?? [])],
    };
    writeFileSync(`${path}.tmp`, JSON.stringify(data), { mode: 0o600 });
    renameSync(`${path}.tmp`, path);
  };
  sinks.add(write);
  if (engines.has(owner)) write(owner);
  return () => {
    sinks.delete(write);
    rmSync(path, { force: true });
  };
}

/** What the reap of a dead host's containers found, one per container (or engine), as data with a code. */
export interface ContainerFinding {
  server: string | null;
  /** `REAPED` (removed), `ENGINE_UNREACHABLE` (its engine did not answer: the file is kept for the next start). */
  code: 'REAPED' | 'ENGINE_UNREACHABLE' | 'IGNORED_UNPARSABLE';
  detail: string;
}

/**
 * Removes the containers dead hosts left, found by their instance label on each engine their ledger names. A live
 * host's file is left alone. Each engine call is bounded; an engine that does not answer keeps its file.
 */
export async function reapContainers(dir: string, timeoutMs = 10_000): Promise<ContainerFinding[]> {
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => FILE.test(f));
  } catch {
    return [];
  }
  const findings: ContainerFinding[] = [];
  for (const file of files) {
    const path = join(dir, file);
    let data: ContainerLedgerFile;
    try {
      data = JSON.parse(readFileSync(path, 'utf8')) as ContainerLedgerFile;
      if (
        typeof data.host?.pid !== 'number' ||
        !Array.isArray(data.engines) ||
        typeof data.owner !== 'string'
      )
        throw new Error('no host, owner or engines');
    } catch (err) {
      findings.push({
        server: null,
        code: 'IGNORED_UNPARSABLE',
        detail: `${file}: ${(err as Error).message}`,
      });
      rmSync(path, { force: true });
      continue;
    }
    if (hostAlive(data.host)) continue;
    let allReached = true;
    for (const engine of data.engines) {
      const found = await reapOn(engine, data.owner, timeoutMs);
      if (found === undefined) {
        allReached = false;
        findings.push({
          server: null,
          code: 'ENGINE_UNREACHABLE',
          detail: `${engine}: its containers are left for the next start`,
        });
      } else findings.push(...found);
    }
    if (allReached) rmSync(path, { force: true });
  }
  return findings;
}

async function reapOn(
  engine: string,
  owner: string,
  timeoutMs: number,
): Promise<ContainerFinding[] | undefined> {
  const client = engineClient(engine, timeoutMs);
  let list: Array<{ Id: string; Labels?: Record<string, string> }>;
  try {
    list = await client.listContainers({ all: true, filters: { label: [`${INSTANCE_LABEL}=${owner}`] } });
  } catch (err) {
    if (
      engineFailure(err, engine).code === 'ENGINE_UNREACHABLE' ||
      engineFailure(err, engine).code === 'ENGINE_TIMEOUT'
    )
      return undefined;
    return [];
  }
  const out: ContainerFinding[] = [];
  for (const c of list) {
    // The filter is the engine's; the label is checked again so nobody else's container is ever removed.
    if (c.Labels?.[INSTANCE_LABEL] !== owner) continue;
    try {
      await client.getContainer(c.Id).remove({ force: true, v: true });
      out.push({
        server: c.Labels?.[SERVER_LABEL] ?? null,
        code: 'REAPED',
        detail: `container ${c.Id.slice(0, 12)} on ${engine}`,
      });
    } catch {
      // Removed meanwhile: nothing left to do.
    }
  }
  return out;
}
