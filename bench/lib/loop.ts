// Main-thread cost of a piece of work: event-loop utilization (busy ms) and event-loop delay percentiles.
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';

/** What one measured piece of work cost the main thread. */
export interface LoopCost {
  /** Wall-clock duration. */
  wallMs: number;
  /** Main-thread busy time over that window: ELU delta × wall. */
  activeMs: number;
  /** Event-loop delay p99 and max over the window, sampled every 1 ms. */
  p99Ms: number;
  maxMs: number;
}

/** Runs `work` and measures what it cost this thread's event loop (worker threads do not count). */
export async function measureLoop<T>(work: () => Promise<T>): Promise<{ value: T; cost: LoopCost }> {
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const elu0 = performance.eventLoopUtilization();
  const t0 = performance.now();
  try {
    const value = await work();
    const wallMs = performance.now() - t0;
    const elu = performance.eventLoopUtilization(elu0);
    return {
      value,
      cost: {
        wallMs,
        activeMs: elu.utilization * wallMs,
        p99Ms: delay.percentile(99) / 1e6,
        maxMs: delay.max / 1e6,
      },
    };
  } finally {
    delay.disable();
  }
}
