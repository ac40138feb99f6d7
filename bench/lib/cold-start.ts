// Cold start, spawn → ready: our supervisor's start() of one server against the SDK client's connect().
import { BenchError } from './bench-error.js';
import { connectSdk, startBareConnection } from './contenders.js';
import { benchSupervisor, fixtureServer, type TrustMode } from './fixture-fleet.js';
import { fullGc } from './memory.js';

/** One round's cold starts, in ms. */
export interface ColdStartSample {
  ours: number;
  oursBypass: number;
  bare: number;
  sdkConnect: number;
  /** connect() and then one tools/list, the work our `ready` includes. */
  sdkConnectList: number;
}

/** createSupervisor + start() until the one server is ready; stopping is not timed. */
async function oursOnce(trust: TrustMode): Promise<number> {
  const t0 = performance.now();
  const sup = benchSupervisor([fixtureServer('fx')], trust);
  try {
    await sup.start();
    const ms = performance.now() - t0;
    const state = sup.status()[0]?.state;
    if (state !== 'ready') throw new BenchError('NOT_READY', `cold start ended ${state}`);
    return ms;
  } finally {
    await sup.stop();
  }
}

async function bareOnce(): Promise<number> {
  const t0 = performance.now();
  const c = await startBareConnection();
  const ms = performance.now() - t0;
  await c.close();
  return ms;
}

async function sdkOnce(): Promise<{ connect: number; list: number }> {
  const t0 = performance.now();
  const c = await connectSdk();
  try {
    const connect = performance.now() - t0;
    await c.client.listTools();
    return { connect, list: performance.now() - t0 };
  } finally {
    await c.close();
  }
}

/** Interleaved cold-start rounds, alternating which client goes first. */
export async function coldStartRounds(rounds: number): Promise<ColdStartSample[]> {
  const out: ColdStartSample[] = [];
  for (let r = -1; r < rounds; r++) {
    const s: Partial<ColdStartSample> = {};
    const steps: Array<() => Promise<void>> = [
      async () => {
        s.ours = await oursOnce('store');
      },
      async () => {
        const sdk = await sdkOnce();
        s.sdkConnect = sdk.connect;
        s.sdkConnectList = sdk.list;
      },
      async () => {
        s.oursBypass = await oursOnce('bypass');
      },
      async () => {
        s.bare = await bareOnce();
      },
    ];
    if (r % 2 === 1) steps.reverse();
    for (const step of steps) {
      fullGc();
      await step();
    }
    // round -1 warms up module code, the trust store and the page cache
    if (r >= 0) out.push(s as ColdStartSample);
  }
  return out;
}
