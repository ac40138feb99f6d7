// How costs grow with the fleet: 10, 100 and 1,000 servers of a tiny C server (bench/scale/tiny-server.c, built
// here with cc; 20 tools each), against a floor measured in the same run — a bare script that spawns the same
// servers at once, does each handshake (initialize, initialized, tools/list) and calls them with hand-written
// lines (bench/scale/bare-fleet.ts). Figures are printed, never asserted.
// Run: npm run bench -- scale   (SCALE_N=10,100 to choose the sizes)
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { ServerConfig } from '../src/config/types.js';
import { createGateway } from '../src/gateway/create-gateway.js';
import { pageRows, pageStatus } from '../src/inspector/page-data.js';
import { cgroupBase } from '../src/process/cgroup.js';
import type { ContainmentSetting } from '../src/process/containment.js';
import type { Supervisor } from '../src/supervisor/supervisor.js';
import { benchSupervisor, fixtureServer, fleetConfig, removeTrustStore } from './lib/fixture-fleet.js';
import { createSupervisor } from './lib/ours.js';
import { fmt } from './lib/stats.js';
import { markdownTable } from './lib/table.js';
import { type FloorContainment, spawnCost } from './scale/bare-fleet.js';
import { calls } from './scale/calls.js';
import type { FloorFigures } from './scale/floor-main.js';
import { logLogPlot } from './scale/plot.js';
import { idleSessions } from './scale/sessions.js';

const SOURCE = fileURLToPath(new URL('./scale/tiny-server.c', import.meta.url));
const FLOOR = fileURLToPath(new URL('./scale/floor-main.ts', import.meta.url));
const progress = (what: string) => process.stderr.write(`scale: ${what}\n`);
const SIZES = (process.env.SCALE_N ?? '10,100,1000').split(',').map(Number);

function buildTiny(dir: string): string | undefined {
  const out = join(dir, 'tiny-server');
  try {
    execFileSync('cc', ['-O2', '-o', out, SOURCE], { stdio: 'pipe' });
    return out;
  } catch (err) {
    console.log(
      `(scale: cc could not build the tiny server, so nothing is measured: ${(err as Error).message})`,
    );
    return undefined;
  }
}

/** Runs the floor in a bare script of its own and returns its figures. */
function floor(binary: string, n: number, containment: FloorContainment, withCalls: boolean): FloorFigures {
  const base = containment.kind === 'cgroup' ? containment.base : '-';
  const out = execFileSync(
    process.execPath,
    ['--import', 'tsx', FLOOR, binary, String(n), containment.kind, base, withCalls ? '1' : '0'],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 20 },
  );
  return JSON.parse(out) as FloorFigures;
}

function tinyServer(binary: string, id: string): ServerConfig {
  return {
    ...fixtureServer(id),
    command: binary,
    args: [],
    timeouts: { startupMs: 120_000, callMs: 60_000, shutdownMs: 5_000 },
  };
}

/** tools/list through `serve`'s gateway (an SDK client over an in-memory pair), and a search. */
async function throughServe(sup: Supervisor) {
  const gateway = createGateway(sup);
  const [front, back] = InMemoryTransport.createLinkedPair();
  await gateway.connect(back);
  const client = new Client({ name: 'scale', version: '1' });
  await client.connect(front);
  const t0 = performance.now();
  const { tools } = await client.listTools();
  const listMs = performance.now() - t0;
  const t1 = performance.now();
  sup.searchTools('tool number 7 of a tiny server');
  const firstSearchMs = performance.now() - t1;
  const t2 = performance.now();
  for (let i = 0; i < 20; i++) sup.searchTools(`tool ${i} answers its text`);
  const searchMs = (performance.now() - t2) / 20;
  await client.close();
  await gateway.close();
  return { listed: tools.length, listMs, firstSearchMs, searchMs };
}

/** One way of running ours: its containment, whether with a state directory (as the CLI always is), the floor. */
interface Way {
  label: string;
  containment: ContainmentSetting;
  floor: FloorContainment;
  stateDir: boolean;
  /** Whether calls, `serve` and the inspector are measured on this way too. */
  full: boolean;
}

function ways(): Way[] {
  const base = cgroupBase();
  const pgroup = { kind: 'pgroup' } as const;
  return [
    { label: 'pgroup', containment: 'pgroup', floor: pgroup, stateDir: false, full: false },
    { label: 'pgroup, state dir', containment: 'pgroup', floor: pgroup, stateDir: true, full: false },
    base
      ? {
          label: 'cgroup',
          containment: 'cgroup',
          floor: { kind: 'cgroup', base },
          stateDir: false,
          full: true,
        }
      : {
          label: 'pgroup (no cgroup here)',
          containment: 'pgroup',
          floor: pgroup,
          stateDir: false,
          full: true,
        },
  ];
}

/**
 * A full collection whose freed array buffers are counted as freed: their memory is released by a sweeper after
 * the collection, so `external` read at once still counts them (tens of KiB per server, varying run to run).
 */
async function collect(): Promise<void> {
  gc();
  await new Promise((resolve) => setTimeout(resolve, 200));
  gc();
}

/** A full collection, also when node was started without --expose-gc (as `--one scale` runs it inline). */
const gc: () => void = globalThis.gc ?? exposedGc();

function exposedGc(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

async function ours(binary: string, n: number, way: Way, dir: string) {
  const servers = Array.from({ length: n }, (_, i) => tinyServer(binary, `s${i}`));
  const stateDir = way.stateDir ? mkdtempSync(join(dir, 'state-')) : undefined;
  const sup = benchSupervisor(servers, 'store', way.containment, stateDir);
  await collect();
  const rssBefore = process.memoryUsage().rss;
  const t0 = performance.now();
  await sup.start();
  const startMs = performance.now() - t0;
  const ready = sup.status().filter((s) => s.state === 'ready').length;
  // Before any full collection, which would leave the heap smaller than the start had it.
  const forkMs = await spawnCost(binary);
  const extra = way.full
    ? {
        calls: await calls(async (i) => {
          const out = await sup.callToolOutcome(`s${i}.tool_3`, { text: 'hi' });
          if (!out.ok) throw new Error(`s${i}.tool_3: ${out.code} ${out.message}`);
        }, n),
        serve: await throughServe(sup),
        inspector: {
          first: JSON.stringify(pageStatus(sup.status(), 'running')).length,
          update: JSON.stringify({ servers: pageRows(sup.status().slice(0, 1)), now: Date.now() }).length,
        },
      }
    : undefined;
  // After the calls and `serve`: what they keep (the search index) is the fleet's while it is up.
  await collect();
  const up = process.memoryUsage();
  const t1 = performance.now();
  await sup.stop();
  const stopMs = performance.now() - t1;
  // Against the same supervisor stopped, not the process before it: what earlier rows left behind and modules
  // loaded on first use would otherwise count, either way, as the fleet's.
  await collect();
  const down = process.memoryUsage();
  const perServerKiB = (up.heapUsed + up.external - down.heapUsed - down.external) / n / 1024;
  // The process's resident memory grown by the fleet (pages node keeps once touched: no stopped baseline here).
  const rssPerServerKiB = (up.rss - rssBefore) / n / 1024;
  return { startMs, stopMs, ready, perServerKiB, rssPerServerKiB, forkMs, extra };
}

/** stop() of `n` servers under one_for_all (every server stopped together, in reverse order). */
async function oneForAllStop(binary: string, n: number, dir: string): Promise<number> {
  const base = fleetConfig(Array.from({ length: n }, (_, i) => tinyServer(binary, `s${i}`)));
  const sup = createSupervisor(
    { ...base, supervisor: { ...base.supervisor, strategy: 'one_for_all' } },
    { approve: () => true, trustStore: join(dir, 'one-for-all-trust.json'), stdinGraceMs: 500 },
  );
  await sup.start();
  const t0 = performance.now();
  await sup.stop();
  return performance.now() - t0;
}

/** The start and stop curves as an SVG plot (`SCALE_PLOT=docs/scale.svg` writes the one docs show). */
function writePlot(file: string, curves: Map<string, Array<[number, number]>>): void {
  const look: Record<string, { color: string; dashed?: boolean }> = {
    'floor start, pgroup': { color: '#888', dashed: true },
    'floor start, cgroup': { color: '#444', dashed: true },
    'start, pgroup': { color: '#1f77b4' },
    'start, cgroup': { color: '#d62728' },
    'start, pgroup, state dir': { color: '#9467bd' },
    'stop, pgroup': { color: '#2ca02c' },
  };
  const series = Object.entries(look)
    .filter(([label]) => curves.has(label))
    .map(([label, style]) => ({ label, ...style, points: curves.get(label) ?? [] }));
  writeFileSync(file, logLogPlot('Start and stop of a fleet of tiny servers', series));
}

export async function runScaleBench(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-sup-scale-'));
  try {
    const binary = buildTiny(dir);
    if (!binary) return;
    const life: string[][] = [];
    const work: string[][] = [];
    const curves = new Map<string, Array<[number, number]>>();
    const plot = (name: string, n: number, ms: number) =>
      curves.set(name, [...(curves.get(name) ?? []), [n, ms / 1000]]);
    for (const n of SIZES) {
      for (const way of ways()) {
        progress(`${n} servers: the bare floor (${way.floor.kind})`);
        const f = floor(binary, n, way.floor, way.full);
        const [floorStart, floorFork, floorStop, floorCalls] = [f.startMs, f.forkMs, f.stopMs, f.calls];
        progress(`${n} servers: ours (${way.label})`);
        const o = await ours(binary, n, way, dir);
        removeTrustStore();
        if (!way.stateDir) plot(`floor start, ${way.floor.kind}`, n, floorStart);
        plot(`start, ${way.label}`, n, o.startMs);
        plot(`stop, ${way.label}`, n, o.stopMs);
        life.push([
          String(n),
          way.label,
          `${o.ready}/${n}`,
          fmt(floorStart / 1000, 2),
          fmt(o.startMs / 1000, 2),
          fmt(o.startMs / floorStart, 1),
          `${fmt(floorFork, 2)} / ${fmt(o.forkMs, 2)}`,
          fmt(o.startMs / (floorStart + n * Math.max(0, o.forkMs - floorFork)), 1),
          fmt(floorStop / 1000, 2),
          fmt(o.stopMs / 1000, 2),
          fmt(o.perServerKiB, 0),
          fmt(o.rssPerServerKiB, 0),
        ]);
        const x = o.extra;
        if (x && floorCalls)
          work.push([
            String(n),
            `${fmt(floorCalls.p50, 3)} / ${fmt(floorCalls.p99, 3)}`,
            `${fmt(x.calls.p50, 3)} / ${fmt(x.calls.p99, 3)}`,
            fmt(floorCalls.perS, 0),
            fmt(x.calls.perS, 0),
            fmt(x.calls.perS / floorCalls.perS, 2),
            `${x.serve.listed} in ${fmt(x.serve.listMs, 0)} ms`,
            `${fmt(x.serve.firstSearchMs, 1)} / ${fmt(x.serve.searchMs, 2)}`,
            `${fmt(x.inspector.first / 1024, 0)} KiB / ${x.inspector.update} B`,
          ]);
      }
    }
    console.log(
      markdownTable(
        [
          'servers',
          'containment',
          'ready',
          'floor start s',
          'start s',
          'start / floor',
          'spawn ms floor / ours',
          'start / floor at our spawn',
          'floor stop s',
          'stop s',
          'heap+ext KiB/server',
          'RSS KiB/server',
        ],
        life,
      ),
    );
    console.log('');
    console.log(
      markdownTable(
        [
          'servers',
          'floor call p50 / p99 ms',
          'call p50 / p99 ms',
          'floor calls/s (64)',
          'calls/s (64)',
          'share',
          'tools/list via serve',
          'search first / next ms',
          'inspector first / update',
        ],
        work,
      ),
    );
    if (process.env.SCALE_PLOT) writePlot(process.env.SCALE_PLOT, curves);
    progress('200 servers under one_for_all');
    const allStop = await oneForAllStop(binary, 200, dir);
    console.log(`\nstop() of 200 servers under one_for_all: ${fmt(allStop / 1000, 2)} s.`);
    const sessions = Number(process.env.SCALE_SESSIONS ?? 1000);
    progress(`serve --http with ${sessions} idle sessions`);
    const idle = await idleSessions(sessions);
    console.log(
      `\nserve --http with ${sessions} idle 2025 sessions: ${fmt(idle.rssPerSessionKiB, 1)} KiB of RSS per session; ` +
        `a call's median ${fmt(idle.before, 3)} ms with none open, ${fmt(idle.with, 3)} ms with them open.`,
    );
    console.log(
      '\n(The floor, a bare script in a process of its own, spawns and handshakes every server at once, each leading its own process group and, on the cgroup\n' +
        'rows, joining a cgroup leaf of its own through a shell line as ours do; it calls them with bare lines and ends\n' +
        'each by closing its stdin. Each row has its own floor, measured just before it. Calls go to servers spread over\n' +
        'the fleet; "share" is our calls/s over the floor\'s. "spawn ms" is one spawn() of the tiny server in each process\n' +
        'with its fleet up; "floor at our spawn" is the floor\'s start with every spawn costing what it costs in ours.)',
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await runScaleBench();
