import { readFileSync } from 'node:fs';
import { availableContainment, type ContainmentKind } from '../../src/process/containment.js';
import { alive } from '../supervisor/helpers.js';

/** How many pids each kind of `--escape` writes (as in test/fixtures/fixture-escapes.mjs). */
export const ESCAPES = { setsid: 1, 'double-fork': 1, detached: 1, setpgid: 1, 'stubborn-50': 50 } as const;

/** How many `--escape all` writes. */
export const ALL_ESCAPES = 54;

/** The pids the escapees wrote so far (one line each). */
export function escapedPids(file: string): number[] {
  try {
    return readFileSync(file, 'utf8').split('\n').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** Resolves with the escapees' pids once `count` of them wrote theirs (each after it began ignoring SIGTERM). */
export async function waitForEscapees(file: string, count: number, ms = 15_000): Promise<number[]> {
  const end = Date.now() + ms;
  for (;;) {
    const pids = escapedPids(file);
    if (pids.length >= count) return pids;
    if (Date.now() > end) throw new Error(`only ${pids.length} of ${count} escapees wrote their pid`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** SIGKILLs whatever is left of the pids (test cleanup: a failed test must not leak 54 sleepers). */
export function killAll(pids: Iterable<number>): void {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {}
  }
}

/** The pids still alive, zombies excluded. */
export function survivors(pids: number[]): number[] {
  return pids.filter(alive);
}

/** Which mechanisms this machine offers, with a line saying why a missing one is skipped. */
export function mechanisms(): Record<ContainmentKind, boolean> {
  const have = availableContainment();
  for (const [kind, ok] of Object.entries(have)) {
    if (!ok) console.log(`containment ${kind} is not available on this machine: its tests are skipped`);
  }
  return have;
}
