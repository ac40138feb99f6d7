import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { liveGroups } from '../../src/process/ledger.js';
import type { Supervisor, SupervisorOptions } from '../../src/supervisor/supervisor.js';
import type { ServerState, SupervisorEvent } from '../../src/supervisor/types.js';
import { fixtureServer, fleetConfig, type fleets } from '../supervisor/fleet.js';
import { alive, readLog, tempDir } from '../supervisor/helpers.js';

/** Server overrides as `fixtureServer` takes them. */
export type ServerOver = NonNullable<Parameters<typeof fixtureServer>[2]>;

/** What a row's `act` and `afterStop` get: the running supervisor and everything observed so far. */
export interface FaultContext {
  sup: Supervisor;
  events: SupervisorEvent[];
  /** The fixture's `--pid-file` and `--log` paths (every row passes both). */
  pidFile: string;
  logFile: string;
  /** Every pid seen: server pids from `status()`, grandchild pids from the pid file. All must be gone after stop. */
  pids: Set<number>;
  /** How long `stop()` took, set before `afterStop` runs. */
  stopMs: number;
  /** Calls `x.<tool>` and measures how long it took to resolve. */
  call(
    tool: string,
    args?: Record<string, unknown>,
    timeoutMs?: number,
  ): Promise<{ text: string; ms: number }>;
  /** The fixture's current pid file (the latest launch), if written. */
  pidRecord(): { pid: number; grandchild: number | null } | undefined;
  /** Methods (or answers, as `answer:<id>`) the fixture logged, across every launch. */
  logged(): string[];
}

/** One fault: how to provoke it and what must be true afterwards. */
export interface FaultRow {
  name: string;
  /** Fixture flags besides `--pid-file` and `--log`. */
  flags: string[];
  server?: ServerOver;
  options?: SupervisorOptions;
  /** Starts the fleet instead of a plain `await sup.start()`: for a row whose start runs on a clock it moves. */
  start?: (ctx: FaultContext) => Promise<void>;
  /** Provokes the fault once `start()` resolved, and checks call results. */
  act?: (ctx: FaultContext) => Promise<void>;
  /** The server's state once `act` is done, before `stop()`. */
  state: ServerState;
  /** `status().restarts` at that moment. */
  restarts: number;
  /** How many `exit` events were seen before `stop()`. */
  exits: number;
  /** Event keys (see `eventKey`) that must appear, and ones that must not. */
  events: Array<string | RegExp>;
  never?: Array<string | RegExp>;
  /** Extra checks once `stop()` resolved (the no-process-left checks always run). */
  afterStop?: (ctx: FaultContext) => Promise<void> | void;
}

/** The server id every row uses. */
export const ID = 'x';

/** A compact, matchable form of an event: `state ready>backoff`, `exit wedged SIGKILL`, `refused roots/list`. */
export function eventKey(e: SupervisorEvent): string {
  switch (e.type) {
    case 'state':
      return `state ${e.from}>${e.to}`;
    case 'exit':
      return `exit ${e.reason} ${e.signal ?? e.code}`;
    case 'refused':
      return `refused ${e.method}`;
    default:
      return e.type;
  }
}

/**
 * Asserts the ledger is empty, allowing 2 s: for afterEach, where a failed test may have left a stop() that
 * never ran to the end. Right after a completed `stop()` the rows check it at once (stop-reaps.test.ts).
 */
export async function expectReaped(): Promise<void> {
  const end = Date.now() + 2000;
  while (liveGroups().length > 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
  expect(liveGroups()).toEqual([]);
}

function matches(keys: string[], want: string | RegExp): boolean {
  return keys.some((k) => (typeof want === 'string' ? k === want : want.test(k)));
}

function readPidFile(path: string): { pid: number; grandchild: number | null } | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as { pid: number; grandchild: number | null };
  } catch {
    return undefined;
  }
}

/**
 * Runs one row against a real fixture server: start, act, check state / restarts / events, stop, and check that
 * no process of it is left (every pid seen is gone and the ledger is empty).
 */
export async function runFaultRow(row: FaultRow, f: ReturnType<typeof fleets>): Promise<void> {
  const dir = tempDir();
  try {
    const pidFile = join(dir.dir, 'pids.json');
    const logFile = join(dir.dir, 'log.jsonl');
    const flags = [...row.flags, '--pid-file', pidFile, '--log', logFile];
    const { sup, events } = f.create(fleetConfig([fixtureServer(ID, flags, row.server)]), row.options);
    const pids = new Set<number>();
    const collect = () => {
      for (const s of sup.status()) if (s.pid !== undefined) pids.add(s.pid);
      const rec = readPidFile(pidFile);
      if (rec?.grandchild) pids.add(rec.grandchild);
    };
    sup.subscribe(collect);
    const ctx: FaultContext = {
      sup,
      events,
      pidFile,
      logFile,
      pids,
      stopMs: 0,
      call: async (tool, args, timeoutMs) => {
        const t0 = performance.now();
        const text = await sup.callTool(`${ID}.${tool}`, args, timeoutMs === undefined ? {} : { timeoutMs });
        collect();
        return { text, ms: performance.now() - t0 };
      },
      pidRecord: () => readPidFile(pidFile),
      logged: () =>
        readLog(logFile).map((m) => (typeof m.method === 'string' ? m.method : `answer:${String(m.id)}`)),
    };
    await (row.start ? row.start(ctx) : sup.start());
    collect();
    await row.act?.(ctx);
    collect();
    const status = sup.status()[0]!;
    const keys = events.map(eventKey);
    expect(status.state, `state; events: ${keys.join(', ')}`).toBe(row.state);
    expect(status.restarts, 'restarts').toBe(row.restarts);
    expect(events.filter((e) => e.type === 'exit').length, `exits; events: ${keys.join(', ')}`).toBe(
      row.exits,
    );
    for (const want of row.events)
      expect(matches(keys, want), `event ${want} in ${keys.join(', ')}`).toBe(true);
    for (const bad of row.never ?? []) expect(matches(keys, bad), `no event ${bad}`).toBe(false);

    const t0 = performance.now();
    await sup.stop();
    ctx.stopMs = performance.now() - t0;
    // stop() leaves a failed server failed (its limit is spent); everything else ends stopped.
    expect(sup.status()[0]!.state).toBe(row.state === 'failed' ? 'failed' : 'stopped');
    expect(pids.size, 'some process was seen').toBeGreaterThan(0);
    // stop() resolves only once every group is reaped: nothing may be alive at that instant
    expect([...pids].filter(alive), 'pids alive right after stop').toEqual([]);
    expect(liveGroups()).toEqual([]);
    await row.afterStop?.(ctx);
  } finally {
    dir.cleanup();
  }
}
