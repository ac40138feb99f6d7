// The call path alone, for profiling and quick comparisons: calls through Supervisor.callTool, a bare McpConnection
// and the bare JSON-RPC loop, against the fixture, in interleaved rounds (no SDK, no large results).
// Run: node --import tsx [--cpu-prof --cpu-prof-dir=prof] bench/calls-profile.ts [ours-only|loop-only] [sequential]
// [spawn] [one-cpu] [alloc]. `spawn` adds the same contenders spawned the other way: ours and the bare connection with only a process
// group (`pgroup`) and ours in a pid namespace (`ours-ns`), the loop's child in a cgroup leaf of its own (`loop-cg`) and with our child environment
// (`loop-env`), to tell what the containment costs a round trip from what the client costs. `one-cpu` pins this
// process and every server to CPU 0 (taskset) once they run, so no round trip waits for the other CPU to wake.
// `alloc` adds what one sequential call allocates on this process's heap, per contender.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { startBareLoop } from './lib/bare-loop.js';
import {
  type CallRate,
  concurrentEcho,
  SEQUENTIAL_SLICE,
  sequentialEcho,
  sequentialRounds,
} from './lib/call-rounds.js';
import { type Contender, startBareConnection, startOurs } from './lib/contenders.js';
import { interleave } from './lib/interleave.js';
import { OURS_FROM } from './lib/ours.js';
import { fmt, median } from './lib/stats.js';

const args = process.argv.slice(2);

/** A process and everything under it (a pid namespace's server is unshare's child). */
function withDescendants(pid: number | undefined): number[] {
  if (pid === undefined) return [];
  const children = readdirSync(`/proc/${pid}/task`).flatMap((tid) =>
    readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
  );
  return [pid, ...children.flatMap(withDescendants)];
}
/**
 * What `calls` sequential calls allocate on this process's heap, per call: V8's sampling heap profiler (a sample
 * every 256 bytes allocated), counting what was collected since too.
 */
async function bytesPerCall(c: Contender, calls: number): Promise<number> {
  const session = new Session();
  session.connect();
  try {
    await session.post('HeapProfiler.enable');
    await session.post('HeapProfiler.startSampling', {
      samplingInterval: 256,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
    for (let i = 0; i < calls; i++) await c.call('echo', { text: `hello ${i}` });
    const { profile } = await session.post('HeapProfiler.stopSampling');
    let bytes = 0;
    const add = (node: typeof profile.head): void => {
      bytes += node.selfSize;
      for (const child of node.children) add(child);
    };
    add(profile.head);
    return bytes / calls;
  } finally {
    session.disconnect();
  }
}

const sequentialOnly = args.includes('sequential');
const spawnVariants = args.includes('spawn');
const all: Record<string, Contender> = {};
try {
  if (!args.includes('loop-only')) {
    all.ours = await startOurs('bypass');
    if (spawnVariants) {
      all['ours-pg'] = await startOurs('bypass', [], 'pgroup');
      all['ours-ns'] = await startOurs('bypass', [], 'pidns');
    }
  }
  if (!args.includes('ours-only')) {
    if (!args.includes('loop-only')) {
      all.conn = await startBareConnection();
      if (spawnVariants) all['conn-pg'] = await startBareConnection('pgroup');
    }
    all.loop = await startBareLoop();
    if (spawnVariants) {
      all['loop-cg'] = await startBareLoop({ cgroup: true });
      all['loop-env'] = await startBareLoop({ env: true });
    }
  }
  if (args.includes('one-cpu'))
    for (const pid of [process.pid, ...Object.values(all).flatMap((c) => withDescendants(c.pid()))])
      execFileSync('taskset', ['-a', '-p', '-c', '0', String(pid)], { stdio: 'ignore' });
  for (const c of Object.values(all)) {
    await sequentialEcho(c, 1500);
    await concurrentEcho(c, 3000, 64);
  }
  const each = (f: (c: Contender) => Promise<CallRate>) =>
    Object.fromEntries(Object.entries(all).map(([k, c]) => [k, () => f(c)]));
  const seq = await sequentialRounds(5, all, 2000, SEQUENTIAL_SLICE);
  const par = sequentialOnly
    ? {}
    : await interleave(
        5,
        each((c) => concurrentEcho(c, 4000, 64)),
      );
  console.log(`ours from ${OURS_FROM}/${args.includes('one-cpu') ? ', every process on CPU 0' : ''}`);
  for (const [label, r] of [
    ['sequential', seq],
    ['64 in flight', par],
  ] as const) {
    for (const k of Object.keys(all)) {
      const xs = (r as Record<string, CallRate[]>)[k];
      if (!xs) continue;
      const loop = (r as Record<string, CallRate[]>).loop;
      const vsLoop = loop ? median(xs.map((x, i) => x.callsPerS / loop[i]!.callsPerS)) : Number.NaN;
      console.log(
        `${label.padEnd(13)} ${k.padEnd(8)} ${fmt(median(xs.map((x) => x.callsPerS)), 0).padStart(6)} calls/s, ` +
          `${fmt(median(xs.map((x) => x.cpuUsPerCall)), 1)} µs host CPU/call, ${fmt(vsLoop, 2)}× loop`,
      );
    }
  }
  if (args.includes('alloc'))
    for (const [k, c] of Object.entries(all))
      console.log(
        `allocated   ${k.padEnd(8)} ${fmt(await bytesPerCall(c, 20_000), 0)} B per sequential call`,
      );
} finally {
  await Promise.allSettled(Object.values(all).map((c) => c.close()));
}
