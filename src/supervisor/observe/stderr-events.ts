import { TokenBucket } from '../../process/token-bucket.js';
import type { SupervisorEvent } from '../types.js';

/** One stderr line of a server, as `onStderr` hears it: every line, none left out. */
export interface ServerStderrLine {
  server: string;
  line: string;
  at: number;
}

/** How many `stderr` events a server may cause: per second, after a burst. */
export const STDERR_EVENT_RATE = { perSecond: 50, burst: 200 } as const;

interface Limit {
  bucket: TokenBucket;
  /** Lines left out since the last event, told on the next. */
  dropped: number;
}

/**
 * Each server's stderr lines, told twice: every line to the line listeners (a store such as `ServerLogs`, which
 * keeps the newest), and as `stderr` events to the host's listeners at {@link STDERR_EVENT_RATE} per server, each
 * event counting the lines left out before it. The rate limits the telling only, never what a store may keep.
 */
export class StderrEvents {
  private readonly listeners = new Set<(line: ServerStderrLine) => void>();
  private readonly limits = new Map<string, Limit>();

  constructor(
    private readonly emit: (event: SupervisorEvent) => void,
    private readonly now: () => number,
    private readonly warn: (message: string) => void,
  ) {}

  /** Hears every line from now on; returns the unsubscribe function. */
  onLine(listener: (line: ServerStderrLine) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  line(server: string, line: string): void {
    const at = this.now();
    for (const listener of [...this.listeners]) {
      try {
        listener({ server, line, at });
      } catch (err) {
        this.warn(`stderr listener threw: ${String(err)}`);
      }
    }
    const limit = this.limit(server);
    if (!limit.bucket.take()) {
      limit.dropped++;
      return;
    }
    const dropped = limit.dropped;
    limit.dropped = 0;
    this.emit({ type: 'stderr', server, line, dropped, at });
  }

  private limit(server: string): Limit {
    let limit = this.limits.get(server);
    if (!limit) {
      limit = {
        bucket: new TokenBucket(STDERR_EVENT_RATE.perSecond, STDERR_EVENT_RATE.burst, this.now),
        dropped: 0,
      };
      this.limits.set(server, limit);
    }
    return limit;
  }
}
