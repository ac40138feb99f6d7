import type { LogEntry } from '../../supervisor/observe/server-logs.js';
import type { SupervisorEvent } from '../../supervisor/types.js';
import { EventLog } from '../output/event-log.js';
import type { LogFormat } from '../output/logfmt.js';

/**
 * The structured log of a control command run with `--log-format`: its lines as `run` writes them (one record
 * each, lists as JSON arrays), on stderr. Undefined without the flag: the command then writes for people.
 */
export function controlLog(format: LogFormat | undefined): EventLog | undefined {
  return format === undefined ? undefined : new EventLog(format);
}

/** A kept log entry of `server` as the event it was, so `logs --log-format` prints it as `run` logged it. */
export function entryEvent(server: string, e: LogEntry): SupervisorEvent {
  if (e.source === 'stderr')
    return { type: 'stderr', server, line: e.line, dropped: e.dropped ?? 0, at: e.at };
  return {
    type: 'log',
    server,
    level: e.level as Extract<SupervisorEvent, { type: 'log' }>['level'],
    ...(e.logger !== undefined ? { logger: e.logger } : {}),
    data: e.data,
    at: e.at,
  };
}
