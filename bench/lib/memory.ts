// Host memory snapshots with a forced full GC, so deltas measure what is retained rather than garbage.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let gcFn: (() => void) | undefined;

/** A full garbage collection (enables `--expose-gc` at run time when node was started without it). */
export function fullGc(): void {
  if (!gcFn) {
    const g = (globalThis as { gc?: () => void }).gc;
    if (g) gcFn = g;
    else {
      setFlagsFromString('--expose-gc');
      gcFn = runInNewContext('gc') as () => void;
    }
  }
  // twice: the first pass can leave objects that only become garbage once finalizers ran
  gcFn();
  gcFn();
}

/** Resident set size and V8 heap in use, in bytes, after a full GC and a short settle. */
export async function memorySnapshot(): Promise<{ rss: number; heap: number }> {
  await new Promise((r) => setTimeout(r, 50));
  fullGc();
  const m = process.memoryUsage();
  return { rss: m.rss, heap: m.heapUsed + m.external };
}
