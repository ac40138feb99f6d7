// Host memory per supervised server: RSS and heap growth after starting n servers, divided by n. Each figure
// comes from a fresh node process, so garbage and freed-but-kept pages of earlier work do not blur it.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { BenchError } from './bench-error.js';
import { type Contender, connectSdk } from './contenders.js';
import { benchSupervisor, fixtureServer, type TrustMode } from './fixture-fleet.js';
import { memorySnapshot } from './memory.js';
import { median } from './stats.js';

/** Bytes of host memory per server for one fleet size. */
export interface MemorySample {
  n: number;
  oursRss: number;
  oursHeap: number;
  sdkRss: number;
  sdkHeap: number;
  /** Ours as shipped (trust store: each start hashes the executable), where measured. */
  shippedRss?: number;
  shippedHeap?: number;
}

export type MemoryKind = 'ours' | 'bypass' | 'sdk';
type Delta = { rss: number; heap: number };

async function oursDelta(n: number, trust: TrustMode): Promise<Delta> {
  const servers = Array.from({ length: n }, (_, i) => fixtureServer(`s${i}`));
  const before = await memorySnapshot();
  const sup = benchSupervisor(servers, trust);
  try {
    await sup.start();
    const notReady = sup.status().filter((s) => s.state !== 'ready');
    if (notReady.length > 0) throw new BenchError('NOT_READY', `${notReady.length}/${n} servers not ready`);
    const after = await memorySnapshot();
    return { rss: (after.rss - before.rss) / n, heap: (after.heap - before.heap) / n };
  } finally {
    await sup.stop();
  }
}

async function sdkDelta(n: number): Promise<Delta> {
  const before = await memorySnapshot();
  const settled = await Promise.allSettled(Array.from({ length: n }, () => connectSdk()));
  const clients = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value as Contender] : []));
  try {
    if (clients.length < n)
      throw new BenchError('NOT_READY', `${n - clients.length}/${n} SDK clients failed`);
    const after = await memorySnapshot();
    return { rss: (after.rss - before.rss) / n, heap: (after.heap - before.heap) / n };
  } finally {
    await Promise.all(clients.map((c) => c.close()));
  }
}

/** In this process: one throwaway fleet of one (loads code on first use), then the measured fleet of n. */
export async function memoryDelta(kind: MemoryKind, n: number): Promise<Delta> {
  const run = (k: number) =>
    kind === 'sdk' ? sdkDelta(k) : oursDelta(k, kind === 'ours' ? 'store' : 'bypass');
  await run(1);
  return run(n);
}

/** Runs `memoryDelta` in a fresh node process (bench/lib/memory-child.ts) and reads its JSON answer. */
function inChild(kind: MemoryKind, n: number): Promise<Delta> {
  const entry = fileURLToPath(new URL('./memory-child.ts', import.meta.url));
  const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', entry, kind, String(n)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (s: string) => {
    out += s;
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => {
      const last = out.trim().split('\n').pop() ?? '';
      if (code === 0) resolve(JSON.parse(last) as Delta);
      else reject(new BenchError('NOT_READY', `memory child ${kind} n=${n} exited ${code}: ${last}`));
    });
  });
}

/** Fleets of one are measured this many times (median): one server's growth is near the noise of a GC. */
const SMALL_REPEATS = 3;

/**
 * One sample per fleet size, each figure from its own process, alternating who goes first. Ours runs with the
 * trust gate bypassed (hashing a 100 MB node binary per server would dominate the run time), and as shipped at
 * the sizes in `shippedAt`.
 */
export async function memoryPerServer(
  sizes: readonly number[],
  shippedAt: readonly number[],
): Promise<MemorySample[]> {
  const out: MemorySample[] = [];
  for (const n of sizes) {
    const ours: Delta[] = [];
    const sdk: Delta[] = [];
    const repeats = n === 1 ? SMALL_REPEATS : 1;
    for (let r = 0; r < repeats; r++) {
      if ((out.length + r) % 2 === 0) {
        ours.push(await inChild('bypass', n));
        sdk.push(await inChild('sdk', n));
      } else {
        sdk.push(await inChild('sdk', n));
        ours.push(await inChild('bypass', n));
      }
    }
    const sample: MemorySample = {
      n,
      oursRss: median(ours.map((x) => x.rss)),
      oursHeap: median(ours.map((x) => x.heap)),
      sdkRss: median(sdk.map((x) => x.rss)),
      sdkHeap: median(sdk.map((x) => x.heap)),
    };
    if (shippedAt.includes(n)) {
      const b = await inChild('ours', n);
      sample.shippedRss = b.rss;
      sample.shippedHeap = b.heap;
    }
    out.push(sample);
  }
  return out;
}
