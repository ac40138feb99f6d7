import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { TrustStore } from '../../src/trust/trust-store.js';

// Twelve processes approve distinct servers into one store, round after round, each round starting on the lock
// a dead writer left: one of this version killed while holding it, or one of the earlier format, killed holding
// it (`<pid>\n`) or between creating it and writing its pid (empty, and old).
const WRITER = fileURLToPath(new URL('../fixtures/store-writer.ts', import.meta.url));
const WRITERS = 12;
type Shape = 'held when killed' | 'earlier format, pid written' | 'earlier format, empty';
// Two processes judging the same stale lock dead at once is a narrow race: many rounds give it many chances.
const ROUNDS: Shape[] = [
  'held when killed',
  ...Array.from(
    { length: 20 },
    (_, r): Shape => (r % 2 ? 'earlier format, empty' : 'earlier format, pid written'),
  ),
];
let dir: string;
let store: string;
const children: ChildProcess[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'mcps-stale-'));
  store = join(dir, 'trust.json');
});
afterEach(async () => {
  const running = children.splice(0).filter((c) => c.exitCode === null && c.signalCode === null);
  const gone = running.map((c) => new Promise((r) => c.once('exit', r)));
  for (const c of running) c.kill('SIGKILL');
  await Promise.all(gone);
  rmSync(dir, { recursive: true, force: true });
});

function run(args: string[]): { child: ChildProcess; exited: Promise<void> } {
  const child = spawn(process.execPath, ['--import', 'tsx', WRITER, ...args], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.push(child);
  return { child, exited: new Promise((r) => child.once('exit', () => r())) };
}

/** True once `done` holds; false when a writer failed first or `ms` went by. */
async function waitFor(done: () => boolean, writers: ChildProcess[], ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (!done()) {
    if (writers.some((w) => w.exitCode !== null || w.signalCode !== null) || Date.now() >= end) return false;
    await new Promise((r) => setTimeout(r, 10));
  }
  return true;
}

async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((r) => child.once('exit', r));
  return child.pid!;
}

async function leaveStaleLock(shape: Shape, dead: number): Promise<void> {
  const lock = `${store}.lock`;
  if (shape === 'earlier format, pid written') writeFileSync(lock, `${dead}\n`);
  if (shape === 'earlier format, empty') {
    writeFileSync(lock, '');
    const old = new Date(Date.now() - 10_000);
    utimesSync(lock, old, old);
  }
  if (shape === 'held when killed') {
    const held = join(dir, 'held');
    const holder = run(['--hold', store, held]);
    if (!(await waitFor(() => existsSync(held), [holder.child], 60_000)))
      throw new Error('the holder never took the lock');
    holder.child.kill('SIGKILL');
    await holder.exited;
    rmSync(held);
  }
}

it('loses no approval when 12 writers meet the lock a dead writer left, round after round', async () => {
  const go = join(dir, 'go');
  // The first round's lock is left while the writers start up: their start is the slow part.
  const dead = await deadPid();
  const first = leaveStaleLock(ROUNDS[0]!, dead);
  first.catch(() => {});
  const writers = Array.from({ length: WRITERS }, (_, w) =>
    run([store, `s${w}_`, '1', '', go, String(ROUNDS.length)]),
  );
  const procs = writers.map((w) => w.child);
  let rounds = 0;
  for (; rounds < ROUNDS.length; rounds++) {
    // Every writer has finished the round before (so the lock is free) and waits for this round's go.
    const ready = () =>
      readdirSync(dir).filter((f) => f.startsWith(`go.ready.${rounds}.`)).length === WRITERS;
    // Twelve processes starting at once can take long on a busy machine; a round, once they run, does not.
    if (!(await waitFor(ready, procs, rounds === 0 ? 60_000 : 30_000))) break;
    await (rounds === 0 ? first : leaveStaleLock(ROUNDS[rounds]!, dead));
    writeFileSync(`${go}.${rounds}`, '');
  }
  if (rounds === ROUNDS.length) await Promise.all(writers.map((w) => w.exited));
  // A writer whose approval failed says why on stderr and exits non-zero: it is seen, not swallowed.
  const failed = procs.flatMap((p, w) =>
    p.exitCode === 0 || p.exitCode === null ? [] : [`writer ${w} exited ${p.exitCode}`],
  );
  expect(failed).toEqual([]);
  expect(rounds).toBe(ROUNDS.length);
  expect(procs.map((p) => p.exitCode)).toEqual(Array(WRITERS).fill(0));
  const ids = (await TrustStore.open(store)).list().map((r) => r.id);
  const expected = Array.from({ length: WRITERS }, (_, w) =>
    Array.from({ length: ROUNDS.length }, (_, r) => `s${w}_${r}`),
  );
  expect(ids.sort()).toEqual(expected.flat().sort());
  expect(existsSync(`${store}.lock`)).toBe(false);
}, 120_000);
