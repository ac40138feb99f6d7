import { readdirSync, readFileSync } from 'node:fs';
import { sleep } from '../cli/helpers.js';

/**
 * The live processes whose environment has `HOME=home`: a program started with a HOME of its own, and everything
 * it started (HOME is on the environment allowlist every server gets). Zombies have no environment left.
 */
export function processesWithHome(home: string): number[] {
  const marker = `HOME=${home}`;
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      if (readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').includes(marker)) pids.push(pid);
    } catch {
      // Gone while we looked, or not ours to read.
    }
  }
  return pids;
}

/** Waits up to `ms` for every process of `home` to end; returns those still there then. */
export async function leftWithHome(home: string, ms: number): Promise<number[]> {
  const end = Date.now() + ms;
  for (;;) {
    const left = processesWithHome(home);
    if (left.length === 0 || Date.now() > end) return left;
    await sleep(50);
  }
}

/** Kills, by pid, whatever still runs with `home`: the clean-up of a test that failed half-way. */
export function killWithHome(home: string): void {
  for (const pid of processesWithHome(home)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}
