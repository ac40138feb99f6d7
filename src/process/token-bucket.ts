/**
 * A token bucket: `burst` tokens at most, refilled at `perSecond`. Time comes from `now` (ms), so a test can
 * drive it without waiting.
 */
export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
    private readonly now: () => number,
  ) {
    this.tokens = burst;
    this.last = now();
  }

  /** True when the bucket was full before the last take: the sender has been quiet long enough to refill it. */
  get wasFull(): boolean {
    return this.tokens >= this.burst - 1;
  }

  /** Takes one token; false when none is left. */
  take(): boolean {
    const t = this.now();
    // A clock that steps back (or a fresh one) refills nothing rather than draining the bucket.
    const elapsed = Math.max(0, t - this.last);
    this.last = Math.max(this.last, t);
    this.tokens = Math.min(this.burst, this.tokens + (elapsed * this.perSecond) / 1000);
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}
