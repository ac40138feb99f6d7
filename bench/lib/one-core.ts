// Runs a measurement with this process and the servers it talks to on one core, then puts them back. A sequential
// call's rate depends most on where the scheduler puts the two processes (a wake-up across cores costs more than
// either side's code); on one core that is the same for every contender, so what is left is the code.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** The cores a process may run on, as `taskset -c` takes them; undefined when it cannot be read. */
function allowedCores(pid: number): string | undefined {
  try {
    return /^Cpus_allowed_list:\s*(\S+)$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  } catch {
    return undefined;
  }
}

function pin(pid: number, cores: string): boolean {
  try {
    execFileSync('taskset', ['-a', '-p', '-c', cores, String(pid)], { stdio: 'ignore', timeout: 5_000 });
    return true;
  } catch {
    return false;
  }
}

/**
 * `work` with every thread of this process and of each of `pids` allowed the first core only; each put back to the
 * cores it had afterwards, whatever `work` did. Undefined, without running `work`, where that cannot be done
 * (no `taskset`, a process gone).
 */
export async function onOneCore<T>(
  pids: ReadonlyArray<number | undefined>,
  work: () => Promise<T>,
): Promise<T | undefined> {
  const all = [process.pid, ...pids.filter((p): p is number => p !== undefined)];
  const before = all.map((pid) => ({ pid, cores: allowedCores(pid) }));
  if (before.some((b) => b.cores === undefined)) return undefined;
  try {
    const first = before[0]!.cores!.split(/[,-]/)[0]!;
    if (!all.every((pid) => pin(pid, first))) return undefined;
    return await work();
  } finally {
    for (const b of before) pin(b.pid, b.cores!);
  }
}
