// Time the hypervisor gave this machine's cores to someone else (Linux /proc/stat `steal`). On a shared virtual
// machine a run's figures move with it more than with anything the code does, so each benchmark prints it.
import { readFileSync } from 'node:fs';

/** The machine's CPU time so far, in clock ticks: all of it and the part stolen; undefined where unknown. */
export interface CpuTicks {
  total: number;
  steal: number;
}

export function cpuTicks(): CpuTicks | undefined {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0] ?? '';
    const fields = line.trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal guest guest_nice; guest time is already in user
    const total = fields.slice(0, 8).reduce((a, b) => a + b, 0);
    const steal = fields[7];
    return steal === undefined || !Number.isFinite(total) || total <= 0 ? undefined : { total, steal };
  } catch {
    return undefined;
  }
}

/** The share of the cores' time stolen between two readings, as text ('' where unknown). */
export function stolenText(from: CpuTicks | undefined, to: CpuTicks | undefined): string {
  if (!from || !to || to.total <= from.total) return '';
  const pct = (100 * (to.steal - from.steal)) / (to.total - from.total);
  return `; the hypervisor took ${pct.toFixed(1)} % of the cores' time`;
}
