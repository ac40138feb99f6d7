// The call load of the scale benchmark, the same for ours and the floor.
import { median, percentile } from '../lib/stats.js';

const SEQUENTIAL = 300;
const CONCURRENT = 2000;
const IN_FLIGHT = 64;

/** A spread of server indexes that is the same in every run. */
function spread(n: number, count: number): number[] {
  let x = 12345;
  return Array.from({ length: count }, () => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x % n;
  });
}

export interface CallFigures {
  p50: number;
  p99: number;
  perS: number;
}

/** Sequential calls to servers spread over the fleet (p50, p99 ms), then calls/s with 64 in flight. */
export async function calls(call: (i: number) => Promise<void>, n: number): Promise<CallFigures> {
  const times: number[] = [];
  for (const i of spread(n, SEQUENTIAL)) {
    const t0 = performance.now();
    await call(i);
    times.push(performance.now() - t0);
  }
  const targets = spread(n, CONCURRENT);
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < targets.length) await call(targets[next++] as number);
    }),
  );
  const perS = CONCURRENT / ((performance.now() - t0) / 1000);
  return { p50: median(times), p99: percentile(times, 99), perS };
}
