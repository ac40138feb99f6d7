import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

const MiB = 1024 * 1024;

// Past this the test stops at once: an unbounded host would otherwise take the test runner down with it.
const ABORT_BYTES = 512 * MiB;

// A full collection on demand, so that what is measured is memory the host holds, not garbage it has yet to collect.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** The host's memory that a flood can grow: the JS heap plus Buffers and other memory outside it. */
function used(): number {
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
}

/**
 * Watches the host's memory from now on. Every 100 ms it runs a full GC and samples what is still held:
 * `peak` is the largest growth of that live memory over the start. `rawPeak` also counts garbage awaiting
 * collection (sampled every 10 ms), which depends on when V8 chooses to collect. `runFor` and `until` wait while
 * sampling and throw as soon as growth passes 512 MiB.
 */
export function watchHeap() {
  gc();
  const base = used();
  let peak = 0;
  let rawPeak = 0;
  let ticks = 0;
  const sample = () => {
    const now = used() - base;
    rawPeak = Math.max(rawPeak, now);
    if (++ticks % 10 === 0) {
      gc();
      peak = Math.max(peak, used() - base);
    }
  };
  const timer = setInterval(sample, 10);
  const check = () => {
    if (rawPeak > ABORT_BYTES)
      throw new Error(`host memory grew by ${(rawPeak / MiB).toFixed(0)} MiB; stopped`);
  };
  const tick = () => new Promise((r) => setTimeout(r, 10));
  return {
    /** Peak growth of live memory (after a full GC). */
    get peak() {
      return peak;
    },
    /** Peak growth including garbage not yet collected. */
    get rawPeak() {
      return rawPeak;
    },
    /** One line for the test output. */
    report(what: string): string {
      return `${what}: peak growth of live heap + external ${(peak / MiB).toFixed(1)} MiB (with uncollected garbage ${(rawPeak / MiB).toFixed(1)} MiB)`;
    },
    async runFor(ms: number): Promise<void> {
      const end = Date.now() + ms;
      while (Date.now() < end) {
        check();
        await tick();
      }
    },
    async until(pred: () => boolean, ms: number, what: string): Promise<void> {
      const end = Date.now() + ms;
      while (!pred()) {
        check();
        if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
        await tick();
      }
    },
    stop(): void {
      clearInterval(timer);
      // One last look, so a growth between the last sample and the end is not missed.
      gc();
      peak = Math.max(peak, used() - base);
    },
  };
}
