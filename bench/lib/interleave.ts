// A/B(/C) rounds: each round runs every contender once, rotating who goes first, with a full GC before each.
import { fullGc } from './memory.js';

/** Runs `rounds` rounds of every measurement in `fns` and returns each one's samples, in round order. */
export async function interleave<K extends string, T>(
  rounds: number,
  fns: Record<K, () => Promise<T>>,
): Promise<Record<K, T[]>> {
  const keys = Object.keys(fns) as K[];
  const out = Object.fromEntries(keys.map((k) => [k, [] as T[]])) as Record<K, T[]>;
  for (let r = 0; r < rounds; r++) {
    for (let i = 0; i < keys.length; i++) {
      const key = keys[(i + r) % keys.length]!;
      // collect the previous contender's garbage now, not inside the next one's window
      fullGc();
      out[key].push(await fns[key]());
    }
  }
  return out;
}
