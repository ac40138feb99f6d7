/** A place in the delivery order for a line still being decoded, and what it turned out to be. */
export interface Slot<E> {
  done: boolean;
  events: E[];
  next: number;
}

/**
 * Delivers a stream's events in stream order while some of its lines are decoded elsewhere: each such line holds
 * a place; events decoded meanwhile queue behind it and go out when every place before them is filled.
 */
export class OrderedEvents<E> {
  #queue: Slot<E>[] = [];
  #draining = false;
  #closed = false;

  constructor(private readonly deliver: (event: E) => void) {}

  /** A place for a line whose event comes later. */
  hold(): Slot<E> {
    const slot: Slot<E> = { done: false, events: [], next: 0 };
    this.#queue.push(slot);
    return slot;
  }

  /** An event decoded now: delivered at once, or behind the places still held. */
  emit(event: E): void {
    if (this.#closed) return;
    if (this.#queue.length === 0) {
      this.deliver(event);
      return;
    }
    const last = this.#queue[this.#queue.length - 1]!;
    if (last.done) last.events.push(event);
    else this.#queue.push({ done: true, events: [event], next: 0 });
  }

  /** Fills a held place (with nothing, for a line that was blank) and delivers what is now in order. */
  fill(slot: Slot<E>, event: E | undefined): void {
    if (this.#closed) return;
    slot.done = true;
    if (event !== undefined) slot.events.push(event);
    this.#drain();
  }

  /** Nothing is delivered after this. Idempotent. */
  close(): void {
    this.#closed = true;
    this.#queue = [];
  }

  #drain(): void {
    if (this.#draining) return;
    this.#draining = true;
    try {
      for (let slot = this.#queue[0]; slot?.done && !this.#closed; slot = this.#queue[0]) {
        // the slot stays queued while it delivers, so an event emitted meanwhile lands behind it
        while (slot.next < slot.events.length && !this.#closed) this.deliver(slot.events[slot.next++]!);
        if (!this.#closed) this.#queue.shift();
      }
    } finally {
      this.#draining = false;
    }
  }
}
