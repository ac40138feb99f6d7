/** Below this many dropped slots the front is not compacted: a slice per few pushes would cost more than it frees. */
const MIN_COMPACT = 64;

/**
 * Items, oldest first, whose sizes add up to at most `capacity`: a push drops the oldest beyond it (the newest is
 * kept even when it alone is larger). Each push costs O(1) amortized however many items a flood pushes through —
 * the front is dropped by moving an index, and the arrays are compacted only once the dropped part outgrows the
 * kept one.
 */
export class ByteRing<T> {
  private items: Array<T | undefined> = [];
  private sizes: number[] = [];
  private head = 0;
  private total = 0;

  constructor(private readonly capacity: number) {}

  /** The sizes of what is kept, added up. */
  get bytes(): number {
    return this.total;
  }

  push(item: T, size: number): void {
    this.items.push(item);
    this.sizes.push(size);
    this.total += size;
    while (this.total > this.capacity && this.items.length - this.head > 1) {
      this.total -= this.sizes[this.head]!;
      // Let go of the dropped item now, not at the next compaction.
      this.items[this.head] = undefined;
      this.head++;
    }
    if (this.head >= MIN_COMPACT && this.head * 2 >= this.items.length) {
      this.items = this.items.slice(this.head);
      this.sizes = this.sizes.slice(this.head);
      this.head = 0;
    }
  }

  /** What is kept, oldest first (a copy). */
  toArray(): T[] {
    return this.items.slice(this.head) as T[];
  }
}
