/** Milliseconds as the exact duration of our configs, in the largest unit that divides them: `90s`, `1500ms`. */
export function msDuration(ms: number): string {
  const whole = Math.round(ms);
  for (const [unit, size] of [
    ['h', 3_600_000],
    ['m', 60_000],
    ['s', 1000],
  ] as const)
    if (whole % size === 0 && whole >= size) return `${whole / size}${unit}`;
  return `${whole}ms`;
}
