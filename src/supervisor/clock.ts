import type { CallClock } from '../protocol/call-clock.js';

/** A timer source for the actor system (XState's SimulatedClock fits); `now` makes restart windows use it too. */
export interface SupervisorClock {
  // biome-ignore lint/suspicious/noExplicitAny: XState's own Clock types these loosely.
  setTimeout(fn: (...args: any[]) => void, timeout: number): any;
  // biome-ignore lint/suspicious/noExplicitAny: as above.
  clearTimeout(id: any): void;
  now?(): number;
}

/** The call path's clock from the host's: its timers, and its `now` when it has one (else the real time). */
export function callClockOf(clock: SupervisorClock): CallClock {
  return {
    now: () => clock.now?.() ?? Date.now(),
    setTimeout: (fn, ms) => clock.setTimeout(fn, ms),
    clearTimeout: (handle) => clock.clearTimeout(handle),
  };
}
