/**
 * The time a call's deadlines run on: the real clock, or one a test drives (XState's `SimulatedClock` fits, as
 * for the machines). Everything on a call's way reads the time and arms its timers through one of these, so a
 * test of a timeout moves the clock instead of waiting for it.
 */
export interface CallClock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** The process's own clock. */
export const REAL_CLOCK: CallClock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/**
 * Whether a pending timer holds the process open. Only a real timer can: a simulated one has nothing to hold,
 * and is left as it is.
 */
export function holdOpen(handle: unknown, hold: boolean): void {
  const timer = handle as { ref?: () => void; unref?: () => void } | null | undefined;
  if (hold) timer?.ref?.();
  else timer?.unref?.();
}
