import { describeSpawnError } from '../../process/preflight.js';
import { formatProblem, type LocatedProblem } from '../../registry/located-yaml.js';
import type { SupervisorLogger } from '../../supervisor/supervisor.js';
import type { SupervisorEvent } from '../../supervisor/types.js';
import { describeLinkError, linkErrorCode } from './link-text.js';
import { formatLogLine, type LogFormat, type LogValue } from './logfmt.js';

export type LogLevel = 'info' | 'warn' | 'error';

const TAIL_CHARS = 400;

/** Writes structured log lines (one per record) to a stream, stderr by default: never to stdout. */
export class EventLog {
  constructor(
    private readonly format: LogFormat,
    private readonly write: (line: string) => void = (line) => void process.stderr.write(line),
    private readonly now: () => number = Date.now,
  ) {}

  /** Logs one supervisor event. */
  event(e: SupervisorEvent): void {
    const { level, fields } = eventRecord(e);
    this.line(level, e.at, fields);
  }

  /** Logs a message of the program itself. */
  log(level: LogLevel, msg: string, fields: Record<string, LogValue> = {}): void {
    this.line(level, this.now(), { event: 'log', msg, ...fields });
  }

  /** The supervisor's `logger` option, writing through this log. */
  logger(): SupervisorLogger {
    return { info: (m) => this.log('info', m), warn: (m) => this.log('warn', m) };
  }

  private line(level: LogLevel, at: number, fields: Record<string, LogValue>): void {
    this.write(`${formatLogLine(this.format, { ts: new Date(at).toISOString(), level, ...fields })}\n`);
  }
}

/** The level and fields of one event's log line. */
export function eventRecord(e: SupervisorEvent): { level: LogLevel; fields: Record<string, LogValue> } {
  switch (e.type) {
    case 'state':
      return { level: 'info', fields: { event: 'state', server: e.server, from: e.from, to: e.to } };
    case 'exit':
      return {
        level: e.reason === 'stopped' ? 'info' : 'warn',
        fields: {
          event: 'exit',
          server: e.server,
          code: e.code,
          signal: e.signal,
          reason: e.reason,
          error: e.spawnError?.code ?? (e.linkError ? linkErrorCode(e.linkError) : undefined),
          why: e.spawnError
            ? describeSpawnError(e.spawnError)
            : e.linkError
              ? describeLinkError(e.reason, e.linkError)
              : undefined,
          // A requested stop is routine: its stderr tail is noise.
          stderr: e.reason === 'stopped' ? undefined : lastLines(e.stderrTail) || undefined,
        },
      };
    case 'tools':
      return {
        level: 'info',
        fields: {
          event: 'tools',
          server: e.server,
          added: list(e.added),
          removed: list(e.removed),
          changed: list(e.changed),
        },
      };
    case 'refused':
      return { level: 'warn', fields: { event: 'refused', server: e.server, method: e.method } };
    case 'untrusted':
      return { level: 'warn', fields: { event: 'untrusted', server: e.server, fingerprint: e.fingerprint } };
    case 'notice':
      return {
        level: 'warn',
        fields: { event: 'notice', server: e.server ?? undefined, code: e.code, msg: e.message },
      };
    case 'escalated':
      return { level: 'error', fields: { event: 'escalated', reason: e.reason } };
    case 'reload_refused':
      return {
        level: 'error',
        fields: {
          event: 'reload_refused',
          code: e.code,
          problems: e.problems.length,
          msg: reloadRefusedText(e),
        },
      };
    case 'prompts':
      return {
        level: 'info',
        fields: {
          event: 'prompts',
          server: e.server,
          added: list(e.added),
          removed: list(e.removed),
        },
      };
    case 'log':
      return {
        level: e.level === 'warning' ? 'warn' : SEVERE.has(e.level) ? 'error' : 'info',
        fields: {
          event: 'server_log',
          server: e.server,
          logger: e.logger,
          msg: typeof e.data === 'string' ? e.data : JSON.stringify(e.data),
        },
      };
    case 'stderr':
      return { level: 'info', fields: { event: 'stderr', server: e.server, line: e.line } };
    case 'resources':
      return { level: 'info', fields: { event: 'resources', server: e.server } };
    case 'reload': {
      const of = (action: string) => list(e.servers.flatMap((s) => (s.action === action ? [s.id] : [])));
      return {
        level: e.needsRestart.length > 0 || of('untrusted') ? 'warn' : 'info',
        fields: {
          event: 'reload',
          restarted: of('restarted'),
          started: of('started'),
          stopped: of('stopped'),
          untrusted: of('untrusted'),
          unchanged: of('unchanged'),
          applied: list(e.applied),
          needs_restart: list(e.needsRestart),
        },
      };
    }
  }
}

const SEVERE = new Set(['error', 'critical', 'alert', 'emergency']);

/** A list field: an array in JSON, comma-joined in logfmt; left out when empty. */
function list(items: readonly string[]): readonly string[] | undefined {
  return items.length > 0 ? items : undefined;
}

/**
 * Both ends of a stderr tail, newlines folded, short enough for one log line: the start is where a server that
 * failed to start says why ("Cannot find module …"), the end is what it said last.
 */
export function lastLines(tail: string): string {
  const folded = tail.trim().replace(/\s*\n\s*/g, ' | ');
  if (folded.length <= TAIL_CHARS) return folded;
  const head = Math.floor(TAIL_CHARS * 0.6);
  return `${folded.slice(0, head)} … ${folded.slice(head - TAIL_CHARS)}`;
}

/** A refused reload, for people: a config with problems changes nothing (the problems follow on their own lines). */
export function reloadRefusedText(e: Extract<SupervisorEvent, { type: 'reload_refused' }>): string {
  return e.code === 'INVALID_CONFIG'
    ? 'reload refused: the config has problems; nothing changed'
    : `reload refused: ${e.message}`;
}

/** Logs located problems one record each (`file`, `line`, `col`, `field`), under the given event name. */
export function logProblems(
  log: { log(level: LogLevel, msg: string, fields?: Record<string, LogValue>): void },
  event: string,
  problems: readonly LocatedProblem[],
): void {
  for (const p of problems) {
    log.log('error', formatProblem(p), {
      event,
      file: p.source,
      line: p.line,
      col: p.col,
      field: p.path || undefined,
    });
  }
}
