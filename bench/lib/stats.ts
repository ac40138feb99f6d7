// Small statistics and number formatting shared by the benchmarks.

/** The median of some samples (NaN when there are none). */
export function median(xs: readonly number[]): number {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** The nearest-rank percentile `p` (0–100) of some samples. */
export function percentile(xs: readonly number[], p: number): number {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
}

/** A number with fixed digits, or an em dash when it is not finite. */
export function fmt(x: number | undefined, digits = 2): string {
  if (x === undefined || !Number.isFinite(x)) return '—';
  const text = x.toFixed(digits);
  // -0.3 rounds to "-0", which reads like a sign error
  return Number(text) === 0 ? (0).toFixed(digits) : text;
}

/** ours ÷ theirs, formatted as `1.23×`; a dash when either side is missing. */
export function ratio(ours: number | undefined, theirs: number | undefined, digits = 2): string {
  if (ours === undefined || theirs === undefined || !Number.isFinite(ours) || !Number.isFinite(theirs))
    return '—';
  if (theirs === 0) return '—';
  return `${(ours / theirs).toFixed(digits)}×`;
}

/** Milliseconds since an arbitrary origin, high resolution. */
export function now(): number {
  return performance.now();
}
