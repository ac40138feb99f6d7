// Host memory per supervised server: RSS and heap growth after starting n servers, divided by n.
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
}

async function oursDelta(n: number, trust: TrustMode): Promise<{ rss: number; heap: number }> {
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

async function sdkDelta(n: number): Promise<{ rss: number; heap: number }> {
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

/** Small fleets are measured this many times (median): one server's growth is near the noise of a GC. */
const SMALL_REPEATS = 3;

/** One sample per fleet size (median of repeats for small ones), ours and the SDK's alternating who goes first. */
export async function memoryPerServer(sizes: readonly number[], trust: TrustMode): Promise<MemorySample[]> {
  // a throwaway pass so code loaded on first use is not billed to the first fleet measured
  await oursDelta(1, trust);
  await sdkDelta(1);
  const out: MemorySample[] = [];
  for (const n of sizes) {
    const ours: Array<{ rss: number; heap: number }> = [];
    const sdk: Array<{ rss: number; heap: number }> = [];
    const repeats = n <= 10 ? SMALL_REPEATS : 1;
    for (let r = 0; r < repeats; r++) {
      if ((out.length + r) % 2 === 0) {
        ours.push(await oursDelta(n, trust));
        sdk.push(await sdkDelta(n));
      } else {
        sdk.push(await sdkDelta(n));
        ours.push(await oursDelta(n, trust));
      }
    }
    out.push({
      n,
      oursRss: median(ours.map((x) => x.rss)),
      oursHeap: median(ours.map((x) => x.heap)),
      sdkRss: median(sdk.map((x) => x.rss)),
      sdkHeap: median(sdk.map((x) => x.heap)),
    });
  }
  return out;
}
