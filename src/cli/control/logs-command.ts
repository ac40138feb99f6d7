import { request } from '../../control/client.js';
import type { ControlStreamLine } from '../../control/protocol.js';
import type { LogEntry } from '../../supervisor/observe/server-logs.js';
import { CliError } from '../errors.js';
import { EventLog } from '../output/event-log.js';
import { entryEvent } from './log.js';
import { findTarget, refused, type TargetFlags } from './target.js';

export interface LogsFlags extends TargetFlags {
  follow?: boolean;
}

/**
 * `logs ID [--follow]`: the server's kept stderr lines and log messages on stdout, oldest first; with `--follow`,
 * then each new one until Ctrl-C or the fleet stops. `--json` prints one entry per line as data.
 */
export async function logsCommand(id: string, flags: LogsFlags): Promise<number> {
  const target = await findTarget(flags);
  // With --log-format the entries are printed as run logged them (on stdout: they are this command's output).
  const lines =
    flags.logFormat && !flags.json
      ? new EventLog(flags.logFormat, (line) => void process.stdout.write(line))
      : undefined;
  const print = (entry: LogEntry) =>
    lines
      ? lines.event(entryEvent(id, entry))
      : process.stdout.write(`${flags.json ? JSON.stringify(entry) : renderEntry(entry)}\n`);
  const entriesOf = (data: unknown) => (data as { entries: LogEntry[] }).entries;
  const r = await request(
    target.path,
    { cmd: 'logs', server: id, ...(flags.follow ? { follow: true } : {}) },
    flags.follow
      ? {
          onAnswer: (answer) => {
            if (answer.ok) for (const e of entriesOf(answer.data)) print(e);
          },
          onLine: (line: ControlStreamLine) => {
            if ('entry' in line) print(line.entry as LogEntry);
          },
        }
      : {},
  );
  if (!r.ok)
    throw new CliError(
      'control_failed',
      `no answer from pid ${target.info.pid} (${r.failure.code}: ${r.failure.detail})`,
    );
  if (!r.answer.ok) throw refused(r.answer, id);
  if (!flags.follow) for (const e of entriesOf(r.answer.data)) print(e);
  return 0;
}

/** `2026-12-03T13:04:40.123Z stderr <line>` / `… log info [logger] <data>`. */
export function renderEntry(e: LogEntry): string {
  const ts = new Date(e.at).toISOString();
  if (e.source === 'stderr')
    return `${ts} ${e.line}${e.dropped ? ` [${e.dropped} line${e.dropped === 1 ? '' : 's'} dropped before]` : ''}`;
  const data = typeof e.data === 'string' ? e.data : JSON.stringify(e.data);
  return `${ts} ${e.level}${e.logger ? ` [${e.logger}]` : ''} ${data}`;
}
