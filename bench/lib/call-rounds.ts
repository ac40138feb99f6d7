// One measured round of calls through a contender: sequential, N in flight, or large results.
import { BenchError } from './bench-error.js';
import type { Contender } from './contenders.js';
import { type LoopCost, mainThreadCpuMs, measureLoop } from './loop.js';
import { fullGc } from './memory.js';

const MiB = 1024 * 1024;

async function echoOnce(c: Contender, text: string): Promise<void> {
  const answer = await c.call('echo', { text });
  if (answer !== text)
    throw new BenchError('WRONG_ANSWER', `echo answered ${JSON.stringify(answer.slice(0, 200))}`);
}

/** Calls per second, and host CPU (user + system, every thread) per call: the second barely moves with load. */
export interface CallRate {
  callsPerS: number;
  cpuUsPerCall: number;
  /** The fixture server's main-thread CPU per call: the floor neither client can go under. */
  serverUsPerCall: number;
}

async function rate(c: Contender, calls: number, run: () => Promise<void>): Promise<CallRate> {
  const pid = c.pid();
  const server0 = pid === undefined ? Number.NaN : mainThreadCpuMs(pid);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await run();
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const serverMs = pid === undefined ? Number.NaN : mainThreadCpuMs(pid) - server0;
  return {
    callsPerS: calls / (wallMs / 1000),
    cpuUsPerCall: (cpu.user + cpu.system) / calls,
    serverUsPerCall: (serverMs * 1000) / calls,
  };
}

/** `calls` echo calls one after another. */
export function sequentialEcho(c: Contender, calls: number): Promise<CallRate> {
  return rate(c, calls, async () => {
    for (let i = 0; i < calls; i++) await echoOnce(c, `hello ${i}`);
  });
}

/** `calls` echo calls with `inFlight` outstanding at every moment. */
export function concurrentEcho(c: Contender, calls: number, inFlight: number): Promise<CallRate> {
  let next = 0;
  const lane = async () => {
    while (next < calls) {
      const i = next++;
      await echoOnce(c, `hello ${i}`);
    }
  };
  return rate(c, calls, async () => {
    await Promise.all(Array.from({ length: inFlight }, lane));
  });
}

/** What ingesting large results cost: main-thread ms per MiB, MiB/s, event-loop delay. */
export interface BigCost extends LoopCost {
  mib: number;
  msPerMiB: number;
  cpuMsPerMiB: number;
  mibPerS: number;
}

/**
 * `count` sequential `big` results of `bytes` each, under the event-loop monitors. `check` validates each answer
 * (ours is flattened and capped, the SDK's is the whole text).
 */
export async function bigResults(
  c: Contender,
  count: number,
  bytes: number,
  check: (answer: string) => boolean,
): Promise<BigCost> {
  const { cost } = await measureLoop(async () => {
    for (let i = 0; i < count; i++) {
      const answer = await c.call('big', { bytes });
      if (!check(answer))
        throw new BenchError('WRONG_ANSWER', `big answered ${JSON.stringify(answer.slice(0, 200))}`);
    }
  });
  const mib = (count * bytes) / MiB;
  return {
    ...cost,
    mib,
    msPerMiB: cost.activeMs / mib,
    cpuMsPerMiB: cost.cpuMs / mib,
    mibPerS: mib / (cost.wallMs / 1000),
  };
}

/** Ours: flattened text capped at maxResultBytes, never an error. */
export function cappedOk(answer: string): boolean {
  return !answer.startsWith('ERROR:') && answer.startsWith('xxxx') && answer.includes('[truncated');
}

/** The SDK's: the whole text, exactly `bytes` long. */
export function wholeOk(bytes: number): (answer: string) => boolean {
  return (answer) => answer.length === bytes;
}

/** Calls per slice in {@link sequentialSlices}: 100 sequential calls take 10–30 ms here. */
export const SEQUENTIAL_SLICE = 100;

/**
 * One round of `calls` sequential echo calls through every contender, run in slices of `slice` calls that take
 * turns (the first to go rotates each slice), each contender's time and CPU summed over its own slices. A
 * sequential call is a round trip through two processes, so its rate follows the machine's load from second to
 * second; slices a few ms long put every contender under the same load, which rounds a second apart do not.
 */
export async function sequentialSlices<K extends string>(
  contenders: Record<K, Contender>,
  calls: number,
  slice: number,
): Promise<Record<K, CallRate>> {
  const keys = Object.keys(contenders) as K[];
  const sums = keys.map(() => ({ wallMs: 0, cpuUs: 0, serverMs: 0 }));
  let done = 0;
  for (let s = 0; done < calls; s++) {
    const n = Math.min(slice, calls - done);
    for (let i = 0; i < keys.length; i++) {
      const at = (i + s) % keys.length;
      const c = contenders[keys[at]!];
      const pid = c.pid();
      const server0 = pid === undefined ? Number.NaN : mainThreadCpuMs(pid);
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      for (let j = 0; j < n; j++) await echoOnce(c, `hello ${done + j}`);
      const wallMs = performance.now() - t0;
      const cpu = process.cpuUsage(cpu0);
      const sum = sums[at]!;
      sum.wallMs += wallMs;
      sum.cpuUs += cpu.user + cpu.system;
      sum.serverMs += pid === undefined ? Number.NaN : mainThreadCpuMs(pid) - server0;
    }
    done += n;
  }
  return Object.fromEntries(
    keys.map((k, i) => {
      const { wallMs, cpuUs, serverMs } = sums[i]!;
      return [
        k,
        {
          callsPerS: calls / (wallMs / 1000),
          cpuUsPerCall: cpuUs / calls,
          serverUsPerCall: (serverMs * 1000) / calls,
        },
      ];
    }),
  ) as Record<K, CallRate>;
}

/** `rounds` rounds of {@link sequentialSlices}, a full GC before each, as `interleave` returns them. */
export async function sequentialRounds<K extends string>(
  rounds: number,
  contenders: Record<K, Contender>,
  calls: number,
  slice: number,
): Promise<Record<K, CallRate[]>> {
  const keys = Object.keys(contenders) as K[];
  const out = Object.fromEntries(keys.map((k) => [k, [] as CallRate[]])) as Record<K, CallRate[]>;
  for (let r = 0; r < rounds; r++) {
    fullGc();
    const round = await sequentialSlices(contenders, calls, slice);
    for (const k of keys) out[k].push(round[k]);
  }
  return out;
}
