import { describeSpawnError } from '../../process/preflight.js';
import type { ServerStatus } from '../../supervisor/types.js';
import { formatDuration } from '../durations.js';
import { describeLinkError } from '../output/link-text.js';

const COLUMNS = ['ID', 'STATE', 'PID', 'RESTARTS', 'UPTIME', 'TOOLS', 'CONTAINED', 'LAST EXIT'] as const;

const STATE_COLOUR: Record<string, string> = {
  ready: '32',
  spawning: '36',
  approving: '35',
  handshaking: '36',
  backoff: '33',
  stopping: '33',
  wedged: '31',
  failed: '31',
  untrusted: '35',
  stopped: '90',
};

/** How the table is drawn: terminal width and whether to colour the state column. */
export interface TableStyle {
  width: number;
  colour: boolean;
}

/** Renders status rows as aligned lines (header first), each cut to the terminal width so nothing wraps. */
export function renderStatusTable(rows: readonly ServerStatus[], now: number, style: TableStyle): string[] {
  const cells = rows.map((r) => [...rowCells(r, now), r.containment ?? '-', describeExit(r, now)]);
  const widths = COLUMNS.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const layout = (c: readonly string[]) =>
    c.map((v, i) => (i === c.length - 1 ? v : v.padEnd(widths[i]!))).join('  ');
  const max = Math.max(10, style.width - 1);
  const lines = [cut(layout(COLUMNS), max)];
  for (const c of cells) {
    const line = cut(layout(c), max);
    lines.push(style.colour ? colourState(line, widths[0]! + 2, c[1]!) : line);
  }
  return lines;
}

/** The cells every status table starts with: id, state, pid, restarts, uptime, tools. */
export function rowCells(r: ServerStatus, now: number): string[] {
  return [
    r.id,
    r.state,
    r.container ? `ctr ${r.container.id.slice(0, 12)}` : r.pid === undefined ? '-' : String(r.pid),
    String(r.restarts),
    r.state === 'ready' ? formatDuration(now - r.since) : '-',
    String(r.tools),
  ];
}

/** `code 1 exited, 12s ago` / `SIGKILL wedged, 3m05s ago` / `spawn failed: command "x" not found …` / `-`. */
export function describeExit(row: ServerStatus, now: number): string {
  const e = row.lastExit;
  if (!e) return '-';
  if (e.spawnError)
    return `spawn failed: ${describeSpawnError(e.spawnError)}, ${formatDuration(now - e.at)} ago`;
  if (e.linkError) return `${describeLinkError(e.reason, e.linkError)}, ${formatDuration(now - e.at)} ago`;
  const how = e.signal ?? `code ${e.code ?? '?'}`;
  return `${how} ${e.reason}, ${formatDuration(now - e.at)} ago`;
}

function cut(line: string, max: number): string {
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`;
}

function colourState(line: string, at: number, state: string): string {
  const code = STATE_COLOUR[state];
  if (!code || line.length < at + state.length) return line;
  return `${line.slice(0, at)}\x1b[${code}m${state}\x1b[0m${line.slice(at + state.length)}`;
}
