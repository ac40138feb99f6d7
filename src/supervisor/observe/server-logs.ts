import type { ServerLogsConfig } from '../../config/types.js';
import type { SupervisorEvent } from '../types.js';
import { ByteRing } from './byte-ring.js';
import { logFilesDir, RotatingLog } from './log-files.js';
import type { ServerStderrLine } from './stderr-events.js';

/** One kept line: a stderr line, or an MCP log message (`notifications/message`) as the server sent it. */
export type LogEntry =
  | { at: number; source: 'stderr'; line: string; dropped?: number }
  | { at: number; source: 'log'; level: string; logger?: string; data: unknown };

/** The default ring, per server. */
export const DEFAULT_LOG_RING_BYTES = 1024 * 1024;

/** What an entry costs besides its text, so that a flood of empty lines cannot fill the ring with millions. */
export const LOG_ENTRY_OVERHEAD_BYTES = 64;

/** What an entry counts against its ring: a line's UTF-8 bytes or a message's JSON, plus the overhead. */
export function logEntryBytes(entry: LogEntry): number {
  const text = entry.source === 'stderr' ? entry.line : JSON.stringify(entry);
  return Buffer.byteLength(text) + LOG_ENTRY_OVERHEAD_BYTES;
}

interface Ring {
  entries: ByteRing<LogEntry>;
  file?: RotatingLog;
}

/**
 * What the logs are taken from: the supervisor. Its `onStderr` gives every stderr line; a source without one is
 * read from its `stderr` events, which are rate-limited, so lines they left out are missing from the ring.
 */
export interface LogSource {
  subscribe(listener: (event: SupervisorEvent) => void): () => void;
  onStderr?(listener: (line: ServerStderrLine) => void): () => void;
}

/**
 * Each server's stderr lines and log messages, newest last, in a ring of at most `ring` bytes per server
 * ({@link logEntryBytes} each), and in size-rotated files under the state directory when `files` is set.
 * Followers hear each new entry as it is kept. However fast a server writes, the newest lines are kept: only
 * the `stderr` events are rate-limited, and the ring does not take its lines from them.
 */
export class ServerLogs {
  private readonly rings = new Map<string, Ring>();
  private readonly followers = new Map<string, Set<(entry: LogEntry) => void>>();
  private readonly unsubscribe: Array<() => void> = [];
  private closed = false;

  constructor(
    source: LogSource,
    private readonly config: ServerLogsConfig = { ring: DEFAULT_LOG_RING_BYTES },
    private readonly stateDir?: string,
    private readonly warn: (message: string) => void = () => {},
  ) {
    const lines = source.onStderr?.bind(source);
    if (lines)
      this.unsubscribe.push(lines((l) => this.add(l.server, { at: l.at, source: 'stderr', line: l.line })));
    this.unsubscribe.push(source.subscribe((e) => this.onEvent(e, lines === undefined)));
  }

  /** What is kept of one server, oldest first. */
  entries(server: string): LogEntry[] {
    return this.rings.get(server)?.entries.toArray() ?? [];
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
    for (const unsubscribe of this.unsubscribe.splice(0)) unsubscribe();
    this.followers.clear();
    for (const ring of this.rings.values()) ring.file?.close();
  }

  private onEvent(e: SupervisorEvent, stderrEvents: boolean): void {
    if (e.type === 'stderr' && stderrEvents)
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
  }

  private add(server: string, entry: LogEntry): void {
    if (this.closed) return;
    const ring = this.ring(server);
    ring.entries.push(entry, logEntryBytes(entry));
    ring.file?.write(JSON.stringify(entry));
    for (const listener of [...(this.followers.get(server) ?? [])]) listener(entry);
  }

  private ring(server: string): Ring {
    let ring = this.rings.get(server);
    if (ring) return ring;
    ring = { entries: new ByteRing(this.config.ring) };
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
