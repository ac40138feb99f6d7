// `serve --http` against the SDK's own Streamable HTTP server proxying the same fixture server, and a bare
// node:http floor, each its own process, driven by the SDK client over Streamable HTTP and by a bare HTTP client,
// in interleaved rounds (medians). Run: node --import tsx bench/serve-http.ts   (HTTP_BENCH_PROFILE=DIR: serve runs with --cpu-prof there;
// HTTP_BENCH_BASELINE=other/dist/cli/main.js: another build of serve runs beside, for before/after in one run;
// HTTP_BENCH_SERVE=…/main.js: serve itself from that build rather than this tree's)
import { availableParallelism, loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import type { CallRate } from './lib/call-rounds.js';
import type { Contender } from './lib/contenders.js';
import { bareHttpClient } from './lib/http-bare-client.js';
import {
  type HttpServerProcess,
  modernHttpClient,
  sdkHttpClient,
  startHttpFloor,
  startSdkProxy,
  startServeHttp,
} from './lib/http-contenders.js';
import { type HttpFigures, type HttpRates, renderServeHttp } from './lib/http-report.js';
import { timedEcho } from './lib/http-rounds.js';
import { interleave } from './lib/interleave.js';
import { OURS_FROM, OURS_FROM_WHY } from './lib/ours.js';

/**
 * The sizes of one run: each contender calls for `roundMs` per round (however many calls that is), so the run
 * stays near half a minute whatever the machine's load.
 */
export const SERVE_HTTP_PLAN = {
  rounds: 5,
  roundMs: 300,
  inFlight: [16, 64] as const,
  warmupMs: 600,
};

const progress = (what: string) => process.stderr.write(`serve-http: ${what}\n`);

type Who =
  | 'serve'
  | 'modern'
  | 'sdk'
  | 'floor'
  | 'bareServe'
  | 'bareSdk'
  | 'bareFloor'
  | 'base'
  | 'baseModern'
  | 'bareBase';

async function measure(plan: typeof SERVE_HTTP_PLAN, clients: Partial<Record<Who, Contender>>) {
  for (const c of Object.values(clients) as Contender[]) {
    // the JIT of all three processes settles over the first few hundred calls
    await timedEcho(c, plan.warmupMs / 2);
    await timedEcho(c, plan.warmupMs / 2, 16);
  }
  const each = (run: (c: Contender) => Promise<CallRate>) =>
    interleave(
      plan.rounds,
      Object.fromEntries(Object.entries(clients).map(([k, c]) => [k, () => run(c as Contender)])) as Record<
        Who,
        () => Promise<CallRate>
      >,
    ) as Promise<HttpRates>;
  progress('sequential');
  const seq = await each((c) => timedEcho(c, plan.roundMs));
  const par: Record<number, HttpRates> = {};
  for (const n of plan.inFlight) {
    progress(`${n} in flight`);
    par[n] = await each((c) => timedEcho(c, plan.roundMs, n));
  }
  return { seq, par };
}

/** Runs every round, prints the table, and returns the figures and the markdown. */
export async function runServeHttpBench(
  plan = SERVE_HTTP_PLAN,
): Promise<{ figures: HttpFigures; markdown: string }> {
  const t0 = performance.now();
  const load = loadavg()[0] ?? 0;
  const profileDir = process.env.HTTP_BENCH_PROFILE;
  const baseline = process.env.HTTP_BENCH_BASELINE;
  const serveMain = process.env.HTTP_BENCH_SERVE;
  const servers: HttpServerProcess[] = [];
  const clients: Partial<Record<Who, Contender>> = {};
  try {
    progress('starting the servers');
    // started side by side; whichever did start is closed below even if another failed
    const started = await Promise.allSettled([
      startServeHttp(OURS_FROM, {
        nodeArgs: profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
        ...(serveMain ? { main: serveMain } : {}),
      }),
      startSdkProxy(),
      startHttpFloor(),
      ...(baseline ? [startServeHttp(OURS_FROM, { main: baseline })] : []),
    ]);
    for (const s of started) if (s.status === 'fulfilled') servers.push(s.value);
    const failed = started.find((s) => s.status === 'rejected');
    if (failed) throw failed.reason;
    const [serve, sdk, floor, base] = servers as [
      HttpServerProcess,
      HttpServerProcess,
      HttpServerProcess,
      HttpServerProcess?,
    ];
    clients.serve = await sdkHttpClient(serve, 'fx.');
    clients.modern = await modernHttpClient(serve, 'fx.');
    clients.sdk = await sdkHttpClient(sdk, '');
    clients.floor = await sdkHttpClient(floor, '');
    // the same three driven by a client that costs a fraction of the SDK's, so the servers bound the rate
    clients.bareServe = await bareHttpClient(serve, 'fx.');
    clients.bareSdk = await bareHttpClient(sdk, '');
    clients.bareFloor = await bareHttpClient(floor, '');
    if (base) {
      clients.base = await sdkHttpClient(base, 'fx.');
      clients.baseModern = await modernHttpClient(base, 'fx.');
      clients.bareBase = await bareHttpClient(base, 'fx.');
    }
    progress(`started in ${((performance.now() - t0) / 1000).toFixed(1)} s; warming up`);
    const calls = await measure(plan, clients);
    const figures: HttpFigures = {
      env: {
        node: process.version,
        cores: availableParallelism(),
        oursFrom: serveMain ?? `${OURS_FROM}/ (${OURS_FROM_WHY})`,
        ...(baseline ? { baseline } : {}),
        load,
      },
      plan,
      ...calls,
      totalMs: performance.now() - t0,
    };
    const markdown = renderServeHttp(figures);
    console.log(markdown);
    return { figures, markdown };
  } finally {
    await Promise.allSettled(Object.values(clients).map((c) => c.close()));
    await Promise.allSettled(servers.map((s) => s.close()));
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await runServeHttpBench();
