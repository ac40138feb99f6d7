/** A timer source for the actor system (XState's SimulatedClock fits); `now` makes restart windows use it too. */
export interface SupervisorClock {
  // biome-ignore lint/suspicious/noExplicitAny: XState's own Clock types these loosely.
  setTimeout(fn: (...args: any[]) => void, timeout: number): any;
  // biome-ignore lint/suspicious/noExplicitAny: as above.
  clearTimeout(id: any): void;
  now?(): number;
}
