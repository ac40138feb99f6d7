import type { TreeUsage } from '../process/tree-usage.js';
import { engineClient } from './engine-client.js';

/** What the engine's stats say a container uses now (its whole cgroup); undefined when it cannot say in time. */
export async function containerUsage(
  engine: string,
  id: string,
  timeoutMs = 3000,
): Promise<TreeUsage | undefined> {
  try {
    const stats = (await engineClient(engine, timeoutMs)
      .getContainer(id)
      .stats({ stream: false })) as unknown as {
      cpu_stats?: { cpu_usage?: { total_usage?: number } };
      memory_stats?: { usage?: number };
      pids_stats?: { current?: number };
    };
    const cpuNs = stats.cpu_stats?.cpu_usage?.total_usage;
    const memory = stats.memory_stats?.usage;
    if (typeof cpuNs !== 'number' || typeof memory !== 'number') return undefined;
    return {
      cpuMs: Math.round(cpuNs / 1e6),
      rssBytes: memory,
      processes: stats.pids_stats?.current ?? 0,
      from: 'engine',
    };
  } catch {
    return undefined;
  }
}
