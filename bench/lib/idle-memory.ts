// Host memory per idle supervised server at fleet scale: n fixture servers started and ready, nothing called,
// the host's heap + external growth after a full GC divided by n (the children's own memory is not counted).
// Ours only, gate bypassed: the SDK side at this size would double the run time and is measured at n ≤ 50.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { BenchError } from './bench-error.js';

/** Bytes per server: RSS growth (the allocator's high-water mark) and heap + external growth (what is kept). */
export interface IdleMemory {
  n: number;
  rss: number;
  heap: number;
  /** How long starting and stopping the fleet took, ms (both sides of the measurement included). */
  wallMs: number;
}

/** Runs one fleet of `n` in a fresh node process (memory-child.ts) and reads its JSON answer. */
export function idleMemory(n: number): Promise<IdleMemory> {
  const entry = fileURLToPath(new URL('./memory-child.ts', import.meta.url));
  const t0 = performance.now();
  const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', entry, 'bypass', String(n)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (s: string) => {
    out += s;
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => {
      const last = out.trim().split('\n').pop() ?? '';
      if (code !== 0) {
        reject(new BenchError('NOT_READY', `memory child n=${n} exited ${code}: ${last}`));
        return;
      }
      const d = JSON.parse(last) as { rss: number; heap: number };
      resolve({ n, rss: d.rss, heap: d.heap, wallMs: performance.now() - t0 });
    });
  });
}
