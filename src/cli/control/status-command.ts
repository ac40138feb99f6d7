import type { InstanceInfo, InstanceUrl } from '../../control/protocol.js';
import type { TreeUsage } from '../../process/tree-usage.js';
import type { ServerStatus } from '../../supervisor/types.js';
import { formatDuration } from '../durations.js';
import { describeExit, rowCells } from './status-table.js';
import { ask, findTarget, refused, type TargetFlags } from './target.js';

/** What `status` answers: the instance, its clock, and one row per server (with its tree's usage when alive). */
export interface StatusData {
  instance: InstanceInfo;
  now: number;
  servers: Array<ServerStatus & { usage?: TreeUsage }>;
}

// Whole on lines of their own, never cut to a width: they are there to be copied (the inspector's carries its token).
const URL_LABELS: Record<InstanceUrl, string> = { ui: 'inspector', metrics: 'metrics', http: 'mcp' };

const COLUMNS = ['ID', 'STATE', 'PID', 'RESTARTS', 'UPTIME', 'TOOLS', 'CPU', 'RSS', 'LAST EXIT'] as const;

/** `status [--json]`: the running fleet's table, or its data. */
export async function statusCommand(flags: TargetFlags): Promise<number> {
  const target = await findTarget(flags);
  const answer = await ask(target, 'status');
  if (flags.json) {
    process.stdout.write(`${JSON.stringify(answer.ok ? answer.data : answer)}\n`);
    return answer.ok ? 0 : 1;
  }
  if (!answer.ok) throw refused(answer);
  process.stdout.write(`${renderStatus(answer.data as StatusData).join('\n')}\n`);
  return 0;
}

/** The header line and an aligned row per server. */
export function renderStatus(data: StatusData): string[] {
  const { instance: i, now } = data;
  const cells = data.servers.map((r) => [
    ...rowCells(r, now),
    r.usage ? `${(r.usage.cpuMs / 1000).toFixed(2)}s` : '-',
    r.usage ? formatBytes(r.usage.rssBytes) : '-',
    describeExit(r, now),
  ]);
  const widths = COLUMNS.map((h, n) => Math.max(h.length, ...cells.map((c) => c[n]!.length)));
  const layout = (c: readonly string[]) =>
    c.map((v, n) => (n === c.length - 1 ? v : v.padEnd(widths[n]!))).join('  ');
  const urls = Object.entries(i.urls ?? {}).map(([name, url]) => `${URL_LABELS[name as InstanceUrl]} ${url}`);
  return [
    `${i.command} ${i.config} (pid ${i.pid}, up ${formatDuration(now - i.startedAt)})`,
    ...urls,
    layout(COLUMNS),
    ...cells.map(layout),
  ];
}

function formatBytes(n: number): string {
  if (n < 1024) return `${n}B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(0)}KiB`;
  if (n < 1024 ** 3) return `${(n / 1024 / 1024).toFixed(1)}MiB`;
  return `${(n / 1024 ** 3).toFixed(2)}GiB`;
}
