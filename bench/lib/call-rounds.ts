// One measured round of calls through a contender: sequential, N in flight, or large results.
import { BenchError } from './bench-error.js';
import type { Contender } from './contenders.js';
import { type LoopCost, mainThreadCpuMs, measureLoop } from './loop.js';

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
