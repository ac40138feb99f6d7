import { readdirSync, readlinkSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { ServerConfig, SupervisorConfig } from '../../src/config/types.js';
import { liveGroups } from '../../src/process/ledger.js';
import type { Supervisor, SupervisorOptions } from '../../src/supervisor/supervisor.js';
import { fixtureServer, fleetConfig } from '../supervisor/fleet.js';
import { alive } from '../supervisor/helpers.js';
import { type PlannedCall, pickCall, rng } from './soak-calls.js';

export interface SoakOptions {
  servers: number;
  durationMs: number;
  /** Calls issued over the run, evenly paced. */
  calls: number;
  /** Most calls in flight at once; the pacer waits beyond it. */
  maxInFlight: number;
  seed: number;
  /** Makes the supervisor (a test passes `fleets().create` so afterEach reaps it). */
  create(config: SupervisorConfig, options: SupervisorOptions): { sup: Supervisor };
  /** Use the real trust gate (approve all into a temp store) instead of deciding trust at once. */
  trust?: boolean;
  onTick?(report: SoakReport): void;
}

export interface CallRecord {
  tool: string;
  timeoutMs: number;
  ms: number;
  verdict: 'ok' | 'error' | 'wrong';
  text: string;
}

export interface SoakReport {
  seed: number;
  issued: number;
  resolved: number;
  ok: number;
  errors: number;
  /** Calls whose answer was neither the expected result nor an `ERROR: ` string (cross-talk, corruption). */
  wrong: CallRecord[];
  /** The worst `ms - timeoutMs` over all calls. */
  worstOverrunMs: number;
  slowest: CallRecord | undefined;
  restarts: number;
  pidsSeen: number;
  pidsLeft: number[];
  groupsLeft: number;
  heapStart: number;
  heapMax: number;
  heapAfter: number;
  fdStart: number;
  fdMax: number;
  fdAfter: number;
  /** Open descriptors of any kind before and after, tsx's cache files included. */
  fdAllStart: number;
  fdAllAfter: number;
  forcedGc: boolean;
  wallMs: number;
  stopMs: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Open descriptors, leaving out tsx's transform-cache files: worker threads started with `--import tsx` (source
 * mode only; dist/ has no tsx) open a few per pool and never close them, which is the loader's doing, not ours.
 */
function fds(): number {
  let n = 0;
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      if (!readlinkSync(`/proc/self/fd/${fd}`).includes('/tsx-')) n++;
    } catch {
      // closed between the listing and the read (the listing's own descriptor, for one)
    }
  }
  return n;
}

/** Every open descriptor, tsx's cache files included. */
function allFds(): number {
  return readdirSync('/proc/self/fd').length;
}

/** A forced full GC when one can be had (the V8 flag can be turned on at run time), else undefined. */
function gcFunction(): (() => void) | undefined {
  const g = (globalThis as { gc?: () => void }).gc;
  if (g) return g;
  try {
    setFlagsFromString('--expose-gc');
    return runInNewContext('gc') as () => void;
  } catch {
    return undefined;
  }
}

/** Heap in use after a forced GC, or the median of a few samples a tick apart when GC cannot be forced. */
async function settledHeap(gc: (() => void) | undefined): Promise<number> {
  if (gc) {
    for (let i = 0; i < 3; i++) {
      gc();
      await sleep(20);
    }
    return process.memoryUsage().heapUsed;
  }
  const samples: number[] = [];
  for (let i = 0; i < 7; i++) {
    samples.push(process.memoryUsage().heapUsed);
    await sleep(50);
  }
  return samples.sort((a, b) => a - b)[3]!;
}

/** The fleet: plain servers and, at every fourth and seventh slot, ones with faults of their own. */
export function soakFleet(n: number, random: () => number): ServerConfig[] {
  return Array.from({ length: n }, (_, i) => {
    const args: string[] = [];
    if (i % 4 === 3) args.push('--exit-after', String(1500 + Math.floor(random() * 5000)));
    if (i % 7 === 5) args.push('--grandchild', '--noise');
    if (i % 7 === 6) args.push('--invalid-jsonrpc', '--stderr-spam', '300');
    return fixtureServer(`s${String(i).padStart(2, '0')}`, args, {
      timeouts: { startupMs: 10_000, callMs: 5000, shutdownMs: 500 },
      health: { intervalMs: 1000, timeoutMs: 1000, failureThreshold: 3 },
      restart: {
        limit: { maxRestarts: 10_000, windowMs: 60_000 },
        backoff: { initialMs: 20, multiplier: 2, maxMs: 200, jitter: 0.2 },
      },
    });
  });
}

/** Runs the fleet under paced random calls, stops it, and reports what held (it asserts nothing). */
export async function runSoak(opts: SoakOptions): Promise<SoakReport> {
  const random = rng(opts.seed);
  const gc = gcFunction();
  const report: SoakReport = {
    seed: opts.seed,
    issued: 0,
    resolved: 0,
    ok: 0,
    errors: 0,
    wrong: [],
    worstOverrunMs: Number.NEGATIVE_INFINITY,
    slowest: undefined,
    restarts: 0,
    pidsSeen: 0,
    pidsLeft: [],
    groupsLeft: 0,
    heapStart: await settledHeap(gc),
    heapMax: 0,
    heapAfter: 0,
    fdStart: fds(),
    fdMax: 0,
    fdAfter: 0,
    fdAllStart: allFds(),
    fdAllAfter: 0,
    forcedGc: gc !== undefined,
    wallMs: 0,
    stopMs: 0,
  };
  const servers = soakFleet(opts.servers, random);
  const config = fleetConfig(servers, { limit: { maxRestarts: 100_000, windowMs: 60_000 } });
  const options: SupervisorOptions = opts.trust ? {} : { gate: async () => ({ ok: true }) };
  const { sup } = opts.create(config, options);
  const pids = new Set<number>();
  const notePids = () => {
    for (const s of sup.status()) if (s.pid !== undefined) pids.add(s.pid);
  };
  sup.subscribe((e) => {
    if (e.type === 'state' && e.to === 'handshaking') notePids();
  });
  const sample = () => {
    report.heapMax = Math.max(report.heapMax, process.memoryUsage().heapUsed);
    report.fdMax = Math.max(report.fdMax, fds());
    report.restarts = sup.status().reduce((n, s) => n + s.restarts, 0);
  };
  const sampler = setInterval(() => {
    sample();
    opts.onTick?.(report);
  }, 250);
  const t0 = performance.now();
  try {
    await sup.start();
    notePids();
    const ids = servers.map((s) => s.id);
    const inFlight = new Set<Promise<void>>();
    const interval = opts.durationMs / opts.calls;
    const started = performance.now();
    for (let i = 0; i < opts.calls; i++) {
      const due = started + i * interval - performance.now();
      if (due > 0) await sleep(due);
      while (inFlight.size >= opts.maxInFlight) await Promise.race(inFlight);
      const p = issue(sup, pickCall(random, ids[Math.floor(random() * ids.length)]!, i), report);
      inFlight.add(p);
      void p.then(() => inFlight.delete(p));
    }
    await Promise.all(inFlight);
    sample();
  } finally {
    clearInterval(sampler);
    const s0 = performance.now();
    await sup.stop();
    report.stopMs = performance.now() - s0;
    report.wallMs = performance.now() - t0;
  }
  report.pidsSeen = pids.size;
  report.pidsLeft = [...pids].filter(alive);
  report.groupsLeft = liveGroups().length;
  report.heapAfter = await settledHeap(gc);
  report.fdAfter = fds();
  report.fdAllAfter = allFds();
  return report;
}

async function issue(sup: Supervisor, call: PlannedCall, report: SoakReport): Promise<void> {
  report.issued++;
  const t = performance.now();
  const text = await sup.callTool(call.name, call.args, { timeoutMs: call.timeoutMs });
  const ms = performance.now() - t;
  report.resolved++;
  const verdict = text.startsWith('ERROR: ') ? 'error' : call.expect(text) ? 'ok' : 'wrong';
  const rec: CallRecord = {
    tool: call.name,
    timeoutMs: call.timeoutMs,
    ms,
    verdict,
    text: text.slice(0, 120),
  };
  if (verdict === 'ok') report.ok++;
  else if (verdict === 'error') report.errors++;
  else report.wrong.push(rec);
  if (ms - call.timeoutMs > report.worstOverrunMs) {
    report.worstOverrunMs = ms - call.timeoutMs;
    report.slowest = rec;
  }
}
