/**
 * The names among `names` nearest to `wanted` by edit distance (a misspelt or half-remembered name), at most
 * `n`, nearest first; only those a few edits away (a third of the name's length, at least two).
 */
export function nearestNames(wanted: string, names: readonly string[], n: number): string[] {
  const most = Math.max(2, Math.floor(wanted.length / 3));
  const scored: Array<[string, number]> = [];
  for (const name of names) {
    if (Math.abs(name.length - wanted.length) > most) continue;
    const d = distance(wanted.toLowerCase(), name.toLowerCase(), most);
    if (d <= most) scored.push([name, d]);
  }
  return scored
    .sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, n)
    .map(([name]) => name);
}

/** Levenshtein distance, given up (answering `most + 1`) once every path is past `most`. */
function distance(a: string, b: string, most: number): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const v = Math.min((prev[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost);
      row.push(v);
      if (v < best) best = v;
    }
    if (best > most) return most + 1;
    prev = row;
  }
  return prev[b.length] ?? most + 1;
}
