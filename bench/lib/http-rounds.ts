// Time-boxed call rounds for the HTTP benchmark: calls through a contender for a fixed wall time (sequential, or
// with N in flight), so the run's length does not grow with the machine's load, only the count of calls does.
import { BenchError } from './bench-error.js';
import type { CallRate } from './call-rounds.js';
import type { Contender } from './contenders.js';
import { mainThreadCpuMs } from './loop.js';

/**
 * Echo calls with `inFlight` outstanding until `ms` have passed (no new call starts after that; those in flight
 * finish and count). The rate is completed calls over the wall time until the last one answered; `serverUsPerCall`
 * is the main-thread CPU of the contender's pid (here: the HTTP server process).
 */
export async function timedEcho(c: Contender, ms: number, inFlight = 1): Promise<CallRate> {
  const pid = c.pid();
  const server0 = pid === undefined ? Number.NaN : mainThreadCpuMs(pid);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const until = t0 + ms;
  let calls = 0;
  const lane = async () => {
    while (performance.now() < until) {
      const text = `hello ${calls}`;
      const answer = await c.call('echo', { text });
      if (answer !== text)
        throw new BenchError('WRONG_ANSWER', `echo answered ${JSON.stringify(answer.slice(0, 200))}`);
      calls++;
    }
  };
  await Promise.all(Array.from({ length: inFlight }, lane));
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const serverMs = pid === undefined ? Number.NaN : mainThreadCpuMs(pid) - server0;
  return {
    callsPerS: calls / (wallMs / 1000),
    cpuUsPerCall: (cpu.user + cpu.system) / calls,
    serverUsPerCall: (serverMs * 1000) / calls,
  };
}
