// @ts-check
// The page's words and numbers: pure functions, so they are unit-tested in Node as they run in the browser.

/** @import { PageEvent, PageExit, PageRow } from '../page-data.js' */
/** @import { LogEntry } from '../../supervisor/observe/server-logs.js' */

/**
 * @param {number} n
 * @param {number} width
 */
export function pad(n, width) {
  return String(n).padStart(width, '0');
}

/**
 * A wall-clock time of day with milliseconds, in the browser's time zone.
 * @param {number} ms
 */
export function clock(ms) {
  const d = new Date(ms);
  return `${pad(d.getHours(), 2)}:${pad(d.getMinutes(), 2)}:${pad(d.getSeconds(), 2)}.${pad(d.getMilliseconds(), 3)}`;
}

/**
 * How long, in its two largest units: `42s`, `3m 07s`, `5h 02m`, `2d 3h`.
 * @param {number} ms
 */
export function duration(ms) {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${pad(s % 60, 2)}s`;
  const h = Math.floor(m / 60);
  if (h < 24) return `${h}h ${pad(m % 60, 2)}m`;
  return `${Math.floor(h / 24)}d ${h % 24}h`;
}

/**
 * @param {{ code: number | null, signal: string | null }} x
 */
export function exitText(x) {
  if (x.signal) return `killed by ${x.signal}`;
  return x.code === null ? 'exited' : `exit code ${x.code}`;
}

/**
 * The headline of a card's last exit.
 * @param {PageExit} x
 */
export function lastExitText(x) {
  return x.why ? `could not start: ${x.why}` : `last exit: ${exitText(x)}`;
}

/**
 * A timeline row's text; null for a state change, which the page draws with its colour instead.
 * @param {PageEvent} e
 * @returns {string | null}
 */
export function describeEvent(e) {
  switch (e.type) {
    case 'state':
      return null;
    case 'exit':
      return e.why ? `could not start: ${e.why}` : exitText(e) + (e.reason ? ` \u2014 ${e.reason}` : '');
    case 'refused':
      return `refused ${e.method}`;
    case 'untrusted':
      return `untrusted (fingerprint ${e.fingerprint.slice(0, 12)})`;
    case 'tools':
      return (
        `tools +${e.added.length} \u2212${e.removed.length} ~${e.changed.length}` +
        (e.changed.length ? ` (held: ${e.changed.join(', ')})` : '')
      );
    case 'notice':
      return e.message;
    case 'escalated':
      return `escalated: ${e.reason}`;
    case 'prompts':
      return `prompts +${e.added.length} \u2212${e.removed.length}`;
    case 'log':
      return `${e.level}${e.logger ? ` ${e.logger}` : ''}: ${typeof e.data === 'string' ? e.data : JSON.stringify(e.data)}`;
    default:
      return /** @type {{ type: string }} */ (e).type;
  }
}

/**
 * The header's summary: `3 servers · 1 backoff · 2 ready`.
 * @param {ReadonlyArray<{ state: string }>} servers
 */
export function summary(servers) {
  /** @type {Record<string, number>} */
  const counts = {};
  for (const s of servers) counts[s.state] = (counts[s.state] ?? 0) + 1;
  const parts = [`${servers.length} ${servers.length === 1 ? 'server' : 'servers'}`];
  for (const k of Object.keys(counts).sort()) parts.push(`${counts[k]} ${k}`);
  return parts.join(' \u00b7 ');
}

/**
 * What a server said of itself, on one line: `everything 2.0.0 · MCP 2025-11-25 · tools, prompts`; empty before
 * its handshake.
 * @param {PageRow['server']} server
 */
export function identityText(server) {
  if (!server) return '';
  const who = [server.info.title ?? server.info.name, server.info.version].filter(Boolean).join(' ');
  const offers = Object.keys(server.capabilities).sort().join(', ');
  return [who || '(unnamed)', `MCP ${server.protocolVersion}`, offers || 'no capabilities'].join(' \u00b7 ');
}

/**
 * A size in bytes: `512 B`, `3.4 KiB`, `1.2 MiB`.
 * @param {number} n
 */
export function bytes(n) {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}

/**
 * A call's duration: `0.4`, `12`, `1530` ms, one decimal under ten.
 * @param {number} ms
 */
export function millis(ms) {
  return ms < 10 ? ms.toFixed(1) : String(Math.round(ms));
}

/**
 * One line of a server's log tail: a stderr line as it was written, a log message as `level logger: data`.
 * @param {LogEntry} e
 */
export function logLine(e) {
  if (e.source === 'stderr') return (e.dropped ? `[${e.dropped} lines dropped] ` : '') + e.line;
  const data = typeof e.data === 'string' ? e.data : JSON.stringify(e.data);
  return `${e.level}${e.logger ? ` ${e.logger}` : ''}: ${data}`;
}
