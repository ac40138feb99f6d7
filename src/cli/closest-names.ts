// "did you mean …" for a name typed on the command line: the same edit distance a config's unknown key is
// measured with, so a typo is forgiven alike wherever it is made.
import { distance } from '../config/unknown-key.js';

/** How many suggestions are named at most. */
const MAX_SUGGESTIONS = 3;

/**
 * The candidates nearest to `name` (those at the least distance, in the candidates' order), within an edit
 * distance that grows with the name: a quarter of its length, at least 2. A candidate that differs only in case,
 * `-` or `_` is as near as can be.
 */
export function closestNames(name: string, candidates: Iterable<string>): string[] {
  const flat = (s: string) => s.toLowerCase().replace(/[_-]/g, '');
  let best = Math.max(2, Math.floor(name.length / 4));
  let nearest: string[] = [];
  for (const candidate of new Set(candidates)) {
    if (candidate === name) continue;
    const d = flat(candidate) === flat(name) ? 0 : distance(name.toLowerCase(), candidate.toLowerCase());
    if (d < best) [best, nearest] = [d, []];
    if (d <= best) nearest.push(candidate);
  }
  return nearest.slice(0, MAX_SUGGESTIONS);
}

/** `did you mean 'a.b'?` / `did you mean 'a.b' or 'a.c'?`, or undefined when there is nothing near. */
export function didYouMean(suggestions: readonly string[]): string | undefined {
  if (suggestions.length === 0) return undefined;
  const quoted = suggestions.map((s) => `'${s}'`);
  const last = quoted.pop();
  return `did you mean ${quoted.length > 0 ? `${quoted.join(', ')} or ` : ''}${last}?`;
}
