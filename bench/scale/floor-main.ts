// The floor as a bare script of its own: a small process, as a user's own script would be, so the bench's heap
// (which ours grew) never makes the floor's forks dearer. Prints its figures as one JSON line.
// argv: <binary> <n> <pgroup|cgroup> <cgroup base or -> <calls: 0|1>
import { BareFleet, type FloorContainment, spawnCost } from './bare-fleet.js';
import { type CallFigures, calls } from './calls.js';

export interface FloorFigures {
  startMs: number;
  forkMs: number;
  stopMs: number;
  calls?: CallFigures;
}

const [binary, count, kind, base, withCalls] = process.argv.slice(2);
const n = Number(count);
const containment: FloorContainment =
  kind === 'cgroup' ? { kind: 'cgroup', base: base as string } : { kind: 'pgroup' };
const t0 = performance.now();
const fleet = await BareFleet.start(binary as string, n, containment);
const startMs = performance.now() - t0;
const forkMs = await spawnCost(binary as string);
const figures = withCalls === '1' ? await calls((i) => fleet.call(i), n) : undefined;
const t1 = performance.now();
await fleet.stop();
const out: FloorFigures = {
  startMs,
  forkMs,
  stopMs: performance.now() - t1,
  ...(figures ? { calls: figures } : {}),
};
process.stdout.write(`${JSON.stringify(out)}\n`);
