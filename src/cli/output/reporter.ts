import { describeSpawnError } from '../../process/preflight.js';
import type { SupervisorLogger } from '../../supervisor/supervisor.js';
import type { ServerStatus, SupervisorEvent } from '../../supervisor/types.js';
import { BoundedLines, STDERR_QUEUE_BYTES } from './bounded-stderr.js';
import { EventLog, eventRecord, type LogLevel, reloadRefusedText } from './event-log.js';
import { describeLinkError } from './link-text.js';
import { LiveTable } from './live-table.js';
import type { LogFormat, LogValue } from './logfmt.js';

/** Where a command shows what the fleet does: structured lines on stderr, or a live table on a terminal. */
export interface Reporter {
  event(e: SupervisorEvent): void;
  log(level: LogLevel, msg: string, fields?: Record<string, LogValue>): void;
  logger(): SupervisorLogger;
  /** Lines above the table (ignored by the line log, which logs them once instead). */
  header(lines: readonly string[]): void;
  /** A line to keep whole (an address with its token): on a line of its own above the table, or one log line. */
  announce(msg: string, fields?: Record<string, LogValue>): void;
  /** Around an interactive prompt. */
  suspend(): void;
  resume(): void;
  stop(): void;
}

/**
 * One structured line per event on stderr; `minLevel` drops quieter ones (for `call`). What waits for a slow
 * stderr reader is bounded (BoundedLines): past it lines are dropped, and a line says how many once it caught up.
 */
export function lineReporter(format: LogFormat, minLevel: LogLevel = 'info'): Reporter {
  const out = new BoundedLines(process.stderr, ({ lines, bytes }) =>
    log.log(
      'warn',
      `stderr was read slower than lines came: ${lines} lines (${bytes} bytes) were dropped while ${STDERR_QUEUE_BYTES} bytes waited for it`,
      { event: 'stderr_dropped', lines, bytes },
    ),
  );
  const log = new EventLog(format, out.write);
  const rank: Record<LogLevel, number> = { info: 0, warn: 1, error: 2 };
  const keep = (level: LogLevel) => rank[level] >= rank[minLevel];
  return {
    event: (e) => {
      // A server's stderr lines are for hosts that ask; its exit line carries the tail.
      if (e.type === 'stderr') return;
      if (keep(eventRecord(e).level)) log.event(e);
    },
    log: (level, msg, fields) => {
      if (keep(level)) log.log(level, msg, fields);
    },
    logger: () => ({
      info: (m) => {
        if (keep('info')) log.log('info', m);
      },
      warn: (m) => log.log('warn', m),
    }),
    header: () => {},
    announce: (msg, fields) => log.log('info', msg, fields),
    suspend: () => {},
    resume: () => {},
    stop: () => {},
  };
}

/** The live status table on a terminal; events other than state changes become lines under it. */
export function tableReporter(stream: NodeJS.WriteStream, rows: () => ServerStatus[]): Reporter {
  const table = new LiveTable(stream, rows);
  const time = () => new Date().toTimeString().slice(0, 8);
  const note = (level: LogLevel, text: string) =>
    table.note(`${time()} ${level === 'info' ? '' : `${level}: `}${text}`);
  return {
    event: (e) => {
      table.invalidate();
      const text = describeEvent(e);
      if (text) note(eventRecord(e).level, text);
    },
    log: (level, msg) => note(level, msg),
    logger: () => ({ info: (m) => note('info', m), warn: (m) => note('warn', m) }),
    header: (lines) => table.setHeader(lines),
    announce: (msg) => table.print(msg),
    suspend: () => table.suspend(),
    resume: () => table.resume(),
    stop: () => table.stop(),
  };
}

/** A one-line description of an event for the table's recent list; state changes are the table itself. */
export function describeEvent(e: SupervisorEvent): string | undefined {
  switch (e.type) {
    case 'state':
      return undefined;
    case 'exit': {
      if (e.spawnError) return `${e.server} could not be started: ${describeSpawnError(e.spawnError)}`;
      if (e.linkError) return `${e.server} ${describeLinkError(e.reason, e.linkError)}`;
      const how = e.signal ?? `code ${e.code ?? '?'}`;
      const tail = e.stderrTail.trim().split('\n').pop()?.trim();
      return `${e.server} exited (${how}, ${e.reason})${tail && e.reason !== 'stopped' ? `: ${tail}` : ''}`;
    }
    case 'tools': {
      const parts = [
        e.added.length ? `+${e.added.length}` : '',
        e.removed.length ? `-${e.removed.length}` : '',
        e.changed.length ? `~${e.changed.length} held for approval` : '',
      ].filter(Boolean);
      return `${e.server} tools ${parts.join(' ')}`;
    }
    case 'refused':
      return `${e.server} asked for ${e.method}: refused`;
    case 'untrusted':
      return `${e.server} not trusted (fingerprint ${e.fingerprint.slice(0, 16)}…): not started`;
    case 'notice':
      return `${e.server ? `${e.server}: ` : ''}${e.message}`;
    case 'escalated':
      return `supervisor limit reached: ${e.reason}; stopping everything`;
    case 'reload':
      return reloadText(e);
    case 'reload_refused':
      return reloadRefusedText(e);
  }
}

/** What a reload did, for people: the servers it touched, and what only a restart of the program applies. */
export function reloadText(e: Extract<SupervisorEvent, { type: 'reload' }>): string {
  const touched = e.servers.filter((s) => s.action !== 'unchanged').map((s) => `${s.id} ${s.action}`);
  const restart = e.needsRestart.length ? `; needs a restart to apply: ${e.needsRestart.join(', ')}` : '';
  return `reloaded: ${touched.join(', ') || 'no server changed'}${restart}`;
}
