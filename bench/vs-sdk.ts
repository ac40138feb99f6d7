// Head-to-head: mcp-supervisor against the official MCP SDK client, both driving the same fixture server over
// pipes, in interleaved rounds (medians). Run: node --import tsx bench/vs-sdk.ts
import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import { startBareLoop } from './lib/bare-loop.js';
import {
  bigResults,
  cappedOk,
  concurrentEcho,
  SEQUENTIAL_SLICE,
  sequentialEcho,
  sequentialRounds,
  wholeOk,
} from './lib/call-rounds.js';
import { coldStartRounds } from './lib/cold-start.js';
import { type Contender, connectSdk, startBareConnection, startOurs } from './lib/contenders.js';
import { removeTrustStore } from './lib/fixture-fleet.js';
import { oursHuge, sdkHuge } from './lib/huge-result.js';
import { idleMemory } from './lib/idle-memory.js';
import { interleave } from './lib/interleave.js';
import { largeNotificationRounds } from './lib/large-notification.js';
import { largeReadRounds } from './lib/large-read.js';
import { memoryPerServer } from './lib/memory-per-server.js';
import { onOneCore } from './lib/one-core.js';
import { defaultFrameThreads, OURS_FROM, OURS_FROM_WHY } from './lib/ours.js';
import { startRawPipe } from './lib/raw-pipe.js';
import { restartRounds } from './lib/restart.js';
import { renderVsSdk, type VsSdkFigures } from './lib/vs-sdk-report.js';

const MiB = 1024 * 1024;

/** The sizes of one run. */
export type VsSdkPlan = VsSdkFigures['plan'] & { memorySizes: readonly number[]; idleServers: number };

/** Sizes of the run; the defaults keep it near a minute and a half on 2 cores. */
export const VS_SDK_PLAN: VsSdkPlan = {
  rounds: 5,
  sequentialCalls: 2000,
  concurrentCalls: 4000,
  inFlight: 64,
  bigBytes: MiB,
  bigCount: 16,
  hugeBytes: 32 * MiB,
  hugeRounds: 3,
  // n = 1 only spreads one supervisor's fixed cost over one server; n = 10 and the 200 idle servers say what scales
  memorySizes: [10],
  idleServers: 200,
  notificationBytes: 8 * MiB,
  readBytes: 8 * MiB,
  restartRounds: 5,
};

const started = performance.now();
/** What the run is doing now, with the seconds since it began (so a slow phase shows where the time goes). */
const progress = (what: string) =>
  process.stderr.write(`vs-sdk: ${what} (at ${((performance.now() - started) / 1000).toFixed(0)} s)\n`);

async function closeAll(cs: Array<Contender | undefined>): Promise<void> {
  await Promise.allSettled(cs.map((c) => c?.close()));
}

/** Sequential, 64-in-flight and 1 MiB rounds on long-lived connections (one fixture process each). */
async function callPhase(plan: VsSdkPlan) {
  let ours: Contender | undefined;
  let sdk: Contender | undefined;
  let bare: Contender | undefined;
  let floor: Contender | undefined;
  let loop: Contender | undefined;
  try {
    ours = await startOurs();
    sdk = await connectSdk();
    bare = await startBareConnection();
    floor = await startRawPipe();
    loop = await startBareLoop();
    const all = { ours, sdk, bare, loop };
    const big = { ours: cappedOk, sdk: wholeOk(plan.bigBytes), bare: cappedOk };
    for (const c of Object.values(all)) {
      // enough calls for the JIT to settle: the first few hundred cost two to three times the later ones
      await sequentialEcho(c, 1500);
      await concurrentEcho(c, 3000, plan.inFlight);
    }
    for (const k of Object.keys(big) as Array<keyof typeof big>)
      await bigResults(all[k], 2, plan.bigBytes, big[k]);
    const pipeOnly = floor;
    const anything = () => true;
    await bigResults(pipeOnly, 2, plan.bigBytes, anything);
    progress('sequential echo');
    const seq = await sequentialRounds(plan.rounds, all, plan.sequentialCalls, SEQUENTIAL_SLICE);
    progress('sequential echo, all on one core');
    const pids = Object.values(all).map((c) => c.pid());
    const seqOneCore = await onOneCore(pids, () =>
      sequentialRounds(plan.rounds, all, plan.sequentialCalls, SEQUENTIAL_SLICE),
    );
    progress(`${plan.inFlight}-in-flight echo`);
    const par = await interleave(plan.rounds, {
      ours: () => concurrentEcho(all.ours, plan.concurrentCalls, plan.inFlight),
      sdk: () => concurrentEcho(all.sdk, plan.concurrentCalls, plan.inFlight),
      bare: () => concurrentEcho(all.bare, plan.concurrentCalls, plan.inFlight),
      loop: () => concurrentEcho(all.loop, plan.concurrentCalls, plan.inFlight),
    });
    progress('1 MiB results');
    const bigs = await interleave(plan.rounds, {
      ours: () => bigResults(all.ours, plan.bigCount, plan.bigBytes, big.ours),
      sdk: () => bigResults(all.sdk, plan.bigCount, plan.bigBytes, big.sdk),
      floor: () => bigResults(pipeOnly, plan.bigCount, plan.bigBytes, anything),
    });
    return { seq, seqOneCore, par, big: bigs };
  } finally {
    await closeAll([ours, sdk, bare, floor, loop]);
  }
}

function sdkVersion(): string {
  const url = new URL('../node_modules/@modelcontextprotocol/sdk/package.json', import.meta.url);
  return (JSON.parse(readFileSync(url, 'utf8')) as { version: string }).version;
}

/** Runs every measurement, prints the table, and returns the raw figures and the rendered markdown. */
export async function runVsSdkBench(
  plan: VsSdkPlan = VS_SDK_PLAN,
): Promise<{ figures: VsSdkFigures; markdown: string }> {
  const t0 = performance.now();
  const env = {
    node: process.version,
    cores: availableParallelism(),
    workerThreads: defaultFrameThreads(),
    oursFrom: `${OURS_FROM}/ (${OURS_FROM_WHY})`,
    sdk: sdkVersion(),
    load: loadavg()[0] ?? 0,
  };
  try {
    const calls = await callPhase(plan);
    progress('32 MiB result');
    const hugeOurs = await oursHuge(plan.hugeBytes, plan.hugeRounds);
    const hugeSdk = await sdkHuge(plan.hugeBytes, 'default options');
    progress('32 MiB result, SDK with maxBufferSize: 64 MiB');
    const hugeSdkRaised = await sdkHuge(plan.hugeBytes, 'maxBufferSize: 64 MiB', 64 * MiB);
    progress(`one ${plan.notificationBytes / MiB} MiB notification`);
    const notification = await largeNotificationRounds(plan.notificationBytes, plan.rounds);
    progress(`one ${plan.readBytes / MiB} MiB resources/read`);
    const read = await largeReadRounds(plan.readBytes, plan.rounds);
    progress('cold start');
    const cold = await coldStartRounds(plan.rounds);
    progress('restart');
    const restartStore = await restartRounds(plan.restartRounds, 'store');
    const restartBypass = await restartRounds(plan.restartRounds, 'bypass');
    progress('memory per server');
    const memory = await memoryPerServer(plan.memorySizes, [10]);
    progress(`${plan.idleServers} idle servers`);
    const idle = await idleMemory(plan.idleServers);
    const figures: VsSdkFigures = {
      env,
      plan,
      ...calls,
      huge: { ours: hugeOurs, sdk: hugeSdk, sdkRaised: hugeSdkRaised },
      cold,
      restart: { store: restartStore, bypass: restartBypass },
      memory,
      notification,
      read,
      idle,
      totalMs: performance.now() - t0,
    };
    const markdown = renderVsSdk(figures);
    console.log(markdown);
    return { figures, markdown };
  } finally {
    removeTrustStore();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await runVsSdkBench();
