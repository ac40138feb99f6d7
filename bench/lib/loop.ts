// Main-thread cost of a piece of work: event-loop utilization (busy ms) and event-loop delay percentiles.
import { readFileSync } from 'node:fs';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';

/** What one measured piece of work cost the main thread. */
export interface LoopCost {
  /** Wall-clock duration. */
  wallMs: number;
  /** Main-thread busy time over that window: ELU delta × wall. */
  activeMs: number;
  /** CPU time of the main thread alone (Linux schedstat; NaN elsewhere): not inflated by waiting for a core. */
  cpuMs: number;
  /** Event-loop delay p99 and max over the window, sampled every 1 ms. */
  p99Ms: number;
  maxMs: number;
}

/** On-CPU time in ms of a process's main thread (default: ours), from /proc schedstat; NaN where that does not exist. */
export function mainThreadCpuMs(pid = process.pid): number {
  try {
    const text = readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8');
    return Number(text.split(' ')[0]) / 1e6;
  } catch {
    return Number.NaN;
  }
}

/** Runs `work` and measures what it cost this thread's event loop (worker threads do not count). */
export async function measureLoop<T>(work: () => Promise<T>): Promise<{ value: T; cost: LoopCost }> {
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const elu0 = performance.eventLoopUtilization();
  const cpu0 = mainThreadCpuMs();
  const t0 = performance.now();
  try {
    const value = await work();
    const wallMs = performance.now() - t0;
    const elu = performance.eventLoopUtilization(elu0);
    const cpuMs = mainThreadCpuMs() - cpu0;
    return {
      value,
      cost: {
        wallMs,
        activeMs: elu.utilization * wallMs,
        cpuMs,
        p99Ms: delay.percentile(99) / 1e6,
        maxMs: delay.max / 1e6,
      },
    };
  } finally {
    delay.disable();
  }
}
