/**
 * One value of a structured log line; undefined fields are left out. A list is a JSON array in `json` and its
 * items joined by commas in logfmt, which has no lists.
 */
export type LogValue = string | number | boolean | null | undefined | readonly string[];

export type LogFormat = 'logfmt' | 'json';

const BARE = /^[A-Za-z0-9_.:/@+,-]+$/;

/**
 * Formats one log record as a single line: logfmt (`ts=… level=info event=state server=notes …`, values with
 * spaces, quotes or `=` JSON-quoted) or one JSON object. Newlines never survive, so one record is one line.
 */
export function formatLogLine(format: LogFormat, fields: Record<string, LogValue>): string {
  const kept = Object.entries(fields).filter(([, v]) => v !== undefined) as Array<
    [string, Exclude<LogValue, undefined>]
  >;
  if (format === 'json') return JSON.stringify(Object.fromEntries(kept));
  return kept.map(([k, v]) => `${k}=${logfmtValue(v)}`).join(' ');
}

function logfmtValue(v: Exclude<LogValue, undefined>): string {
  if (v === null) return 'null';
  if (typeof v === 'object') return logfmtValue(v.join(','));
  if (typeof v !== 'string') return String(v);
  return BARE.test(v) ? v : JSON.stringify(v);
}
