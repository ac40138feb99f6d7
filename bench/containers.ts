// A server in a container against the same server as a process: cold start to ready, and one call's round trip,
// in one run (ratios only: absolute times swing with load). Needs a container engine and the test image (made by
// the tests' global setup); without them it says why and prints nothing else. Run: npm run bench -- --one containers
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServerConfig } from '../src/config/types.js';
import { createSupervisor } from '../src/supervisor/supervisor.js';
import { fixtureServer, fleetConfig } from '../test/supervisor/fleet.js';
import { fmt, median, now, ratio } from './lib/stats.js';
import { markdownTable } from './lib/table.js';

const ENGINE = process.env.DOCKER_HOST ?? 'unix:///run/podman/podman.sock';
const IMAGE = 'localhost/mcp-supervisor-test:node';
const STARTS = 5;
const CALLS = 300;
const STORE_DIR = mkdtempSync(join(tmpdir(), 'mcp-supervisor-bench-'));

function boxed(id: string): ServerConfig {
  return fixtureServer(id, [], {
    args: ['/srv/fixtures/mcp-server.mjs'],
    timeouts: { startupMs: 30_000, callMs: 10_000, shutdownMs: 2000 },
    container: {
      image: IMAGE,
      pull: 'never',
      engine: ENGINE,
      network: 'none',
      readOnly: true,
      mounts: [{ source: join(process.cwd(), 'test', 'fixtures'), target: '/srv/fixtures', readOnly: true }],
    },
  });
}

/** Start to ready, then CALLS echo round trips one after another; the supervisor is stopped either way. */
async function measure(server: ServerConfig): Promise<{ startMs: number; callMs: number[] }> {
  const sup = createSupervisor(fleetConfig([server]), {
    approve: () => true,
    trustStore: join(STORE_DIR, 'trust.json'),
  });
  try {
    const t0 = now();
    await sup.start();
    const startMs = now() - t0;
    if (sup.status()[0]?.state !== 'ready')
      throw new Error(`${server.id} did not start: ${JSON.stringify(sup.status()[0]?.lastExit)}`);
    const callMs: number[] = [];
    for (let i = 0; i < CALLS; i++) {
      const t = now();
      await sup.callTool(`${server.id}.echo`, { text: 'x' });
      callMs.push(now() - t);
    }
    return { startMs, callMs };
  } finally {
    await sup.stop();
  }
}

export async function runContainersBench(): Promise<void> {
  try {
    await compare();
  } finally {
    rmSync(STORE_DIR, { recursive: true, force: true });
  }
}

async function compare(): Promise<void> {
  const probe = await measure(boxed('probe')).catch((err: Error) => err);
  if (probe instanceof Error) {
    console.log(`(containers: no engine or test image at ${ENGINE}: ${probe.message}; skipped)`);
    return;
  }
  const rows: Array<{ process: { startMs: number; callMs: number[] }; container: typeof probe }> = [];
  for (let i = 0; i < STARTS; i++)
    rows.push({ process: await measure(fixtureServer('proc')), container: await measure(boxed('box')) });
  const startP = median(rows.map((r) => r.process.startMs));
  const startC = median(rows.map((r) => r.container.startMs));
  const callP = median(rows.flatMap((r) => r.process.callMs));
  const callC = median(rows.flatMap((r) => r.container.callMs));
  console.log(
    `\ncontainers: ${STARTS} cold starts and ${STARTS}×${CALLS} echo calls each, the same fixture server\n`,
  );
  console.log(
    markdownTable(
      ['', 'process', 'container', 'container ÷ process'],
      [
        ['cold start → ready (median ms)', fmt(startP, 1), fmt(startC, 1), ratio(startC, startP)],
        ['one call round trip (median ms)', fmt(callP, 3), fmt(callC, 3), ratio(callC, callP)],
      ],
    ),
  );
}
