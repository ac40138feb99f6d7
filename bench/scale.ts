// How costs grow with the fleet: 10, 100 and 1,000 servers of a tiny C server (bench/scale/tiny-server.c, built
// here with cc; 20 tools each), against a floor measured in the same run — a bare script that spawns the same
// servers at once and does each handshake (initialize, initialized, tools/list), then closes them. Figures are
// printed, never asserted. Run: npm run bench -- --one scale   (SCALE_N=10,100 to choose the sizes)
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ServerConfig } from '../src/config/types.js';
import type { ContainmentSetting } from '../src/process/containment.js';
import { benchSupervisor, fixtureServer, removeTrustStore } from './lib/fixture-fleet.js';
import { fmt } from './lib/stats.js';
import { markdownTable } from './lib/table.js';

const SOURCE = fileURLToPath(new URL('./scale/tiny-server.c', import.meta.url));
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

/** The floor: spawn `n` at once, handshake each, all answered; then close each stdin and wait for every exit. */
async function bare(binary: string, n: number): Promise<{ startMs: number; stopMs: number }> {
  const t0 = performance.now();
  const children: ChildProcess[] = [];
  await Promise.all(
    Array.from({ length: n }, () => {
      const child = spawn(binary, [], { stdio: ['pipe', 'pipe', 'ignore'] });
      children.push(child);
      return new Promise<void>((resolve, reject) => {
        let seen = '';
        child.stdout!.setEncoding('utf8');
        child.stdout!.on('data', (c: string) => {
          seen += c;
          if (seen.includes('"id":2,')) resolve();
        });
        child.once('error', reject);
        child.stdin!.write(
          '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"b","version":"1"}}}\n' +
            '{"jsonrpc":"2.0","method":"notifications/initialized"}\n{"jsonrpc":"2.0","id":2,"method":"tools/list"}\n',
        );
      });
    }),
  );
  const startMs = performance.now() - t0;
  const t1 = performance.now();
  await Promise.all(
    children.map(
      (c) =>
        new Promise<void>((resolve) => {
          c.once('exit', () => resolve());
          c.stdin!.end();
        }),
    ),
  );
  return { startMs, stopMs: performance.now() - t1 };
}

function tinyServer(binary: string, id: string): ServerConfig {
  return {
    ...fixtureServer(id),
    command: binary,
    args: [],
    timeouts: { startupMs: 120_000, callMs: 60_000, shutdownMs: 5_000 },
  };
}

/** Ours: start → every server ready, heap+external per server, then stop() under one_for_one. */
async function ours(binary: string, n: number, containment: ContainmentSetting) {
  const servers = Array.from({ length: n }, (_, i) => tinyServer(binary, `s${i}`));
  globalThis.gc?.();
  const before = process.memoryUsage();
  const sup = benchSupervisor(servers, 'store', containment);
  const t0 = performance.now();
  await sup.start();
  const startMs = performance.now() - t0;
  const ready = sup.status().filter((s) => s.state === 'ready').length;
  globalThis.gc?.();
  const after = process.memoryUsage();
  const perServerKiB = (after.heapUsed + after.external - before.heapUsed - before.external) / n / 1024;
  const tools = sup.listTools().length;
  const t1 = performance.now();
  await sup.stop();
  const stopMs = performance.now() - t1;
  return { startMs, stopMs, ready, tools, perServerKiB };
}

export async function runScaleBench(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-sup-scale-'));
  try {
    const binary = buildTiny(dir);
    if (!binary) return;
    const rows: string[][] = [];
    for (const n of SIZES) {
      progress(`${n} servers: the bare floor`);
      const floor = await bare(binary, n);
      for (const containment of ['pgroup', 'auto'] as const) {
        progress(`${n} servers: ours (${containment})`);
        const o = await ours(binary, n, containment);
        removeTrustStore();
        rows.push([
          String(n),
          containment,
          `${o.ready}/${n}`,
          fmt(floor.startMs / 1000, 2),
          fmt(o.startMs / 1000, 2),
          fmt(o.startMs / floor.startMs, 1),
          fmt(floor.stopMs / 1000, 2),
          fmt(o.stopMs / 1000, 2),
          fmt(o.perServerKiB, 0),
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
          'floor stop s',
          'stop s',
          'heap+ext KiB/server',
        ],
        rows,
      ),
    );
    console.log(
      '\n(The floor spawns and handshakes every server at once, without containment, and ends each by closing its stdin.)',
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await runScaleBench();
