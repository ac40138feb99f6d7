import type { ServerLogsConfig } from '../../config/types.js';
import type { SupervisorEvent } from '../types.js';
import { logFilesDir, RotatingLog } from './log-files.js';

/** One kept line: a stderr line, or an MCP log message (`notifications/message`) as the server sent it. */
export type LogEntry =
  | { at: number; source: 'stderr'; line: string; dropped?: number }
  | { at: number; source: 'log'; level: string; logger?: string; data: unknown };

/** The default ring, per server. */
export const DEFAULT_LOG_RING_BYTES = 1024 * 1024;

interface Ring {
  entries: LogEntry[];
  sizes: number[];
  bytes: number;
  file?: RotatingLog;
}

/** What the logs are taken from: the supervisor's event stream. */
export interface LogSource {
  subscribe(listener: (event: SupervisorEvent) => void): () => void;
}

/**
 * Each server's stderr lines and log messages, newest last, in a ring of at most `ring` bytes per server (a line's
 * UTF-8 length, a message's JSON), and in size-rotated files under the state directory when `files` is set.
 * Followers hear each new entry as it is kept.
 */
export class ServerLogs {
  private readonly rings = new Map<string, Ring>();
  private readonly followers = new Map<string, Set<(entry: LogEntry) => void>>();
  private readonly unsubscribe: () => void;
  private closed = false;

  constructor(
    source: LogSource,
    private readonly config: ServerLogsConfig = { ring: DEFAULT_LOG_RING_BYTES },
    private readonly stateDir?: string,
    private readonly warn: (message: string) => void = () => {},
  ) {
    this.unsubscribe = source.subscribe((e) => {
      if (e.type === 'stderr')
        this.add(e.server, {
          at: e.at,
          source: 'stderr',
          line: e.line,
          ...(e.dropped > 0 ? { dropped: e.dropped } : {}),
        });
      else if (e.type === 'log')
        this.add(e.server, {
          at: e.at,
          source: 'log',
          level: e.level,
          ...(e.logger !== undefined ? { logger: e.logger } : {}),
          data: e.data,
        });
    });
  }

  /** What is kept of one server, oldest first. */
  entries(server: string): LogEntry[] {
    return [...(this.rings.get(server)?.entries ?? [])];
  }

  /** Hears every entry kept from now on for `server`; returns the unsubscribe function. */
  follow(server: string, listener: (entry: LogEntry) => void): () => void {
    if (this.closed) return () => {};
    const set = this.followers.get(server) ?? new Set();
    this.followers.set(server, set);
    set.add(listener);
    return () => set.delete(listener);
  }

  /** Stops listening and closes the log files; idempotent. Followers are dropped (their owner ends their streams). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.unsubscribe();
    this.followers.clear();
    for (const ring of this.rings.values()) ring.file?.close();
  }

  private add(server: string, entry: LogEntry): void {
    if (this.closed) return;
    const ring = this.ring(server);
    const text = entry.source === 'stderr' ? entry.line : JSON.stringify(entry);
    const size = Buffer.byteLength(text);
    ring.entries.push(entry);
    ring.sizes.push(size);
    ring.bytes += size;
    while (ring.bytes > this.config.ring && ring.entries.length > 1) {
      ring.entries.shift();
      ring.bytes -= ring.sizes.shift()!;
    }
    ring.file?.write(JSON.stringify(entry));
    for (const listener of [...(this.followers.get(server) ?? [])]) listener(entry);
  }

  private ring(server: string): Ring {
    let ring = this.rings.get(server);
    if (ring) return ring;
    ring = { entries: [], sizes: [], bytes: 0 };
    const files = this.config.files;
    if (files && this.stateDir !== undefined) {
      try {
        ring.file = new RotatingLog(logFilesDir(this.stateDir), server, files.keep, files.size, this.warn);
      } catch (err) {
        this.warn(`log files for ${server}: ${(err as Error).message}; kept in memory only`);
      }
    }
    this.rings.set(server, ring);
    return ring;
  }
}
