// The serve --http figures as one markdown table, in the columns of the vs-SDK table (medians; ratios per round).
import { loadavg } from 'node:os';
import type { CallRate } from './call-rounds.js';
import { fmt, median } from './stats.js';
import { markdownTable } from './table.js';

/**
 * Call rates of one kind of round: `serve` (2025 session), `modern` (serve, 2026 stateless), `sdk`, `floor`; and
 * `base`/`baseModern`/`bareBase`, the same through another build of serve when one was named (HTTP_BENCH_BASELINE).
 */
export type HttpRates = Record<'serve' | 'modern' | 'sdk' | 'floor', CallRate[]> &
  Partial<Record<'bareServe' | 'bareSdk' | 'bareFloor' | 'base' | 'baseModern' | 'bareBase', CallRate[]>>;

/** Everything one run measured, raw. */
export interface HttpFigures {
  env: { node: string; cores: number; oursFrom: string; load: number; baseline?: string };
  plan: { rounds: number; roundMs: number; inFlight: readonly number[] };
  seq: HttpRates;
  par: Record<number, HttpRates>;
  totalMs: number;
}

/** The target: serve --http at least this many times the SDK proxy's calls/s. */
export const HTTP_TARGET = 1.5;

/** The median over rounds of a÷b within each round (both ran in the same round, under the same load). */
function perRound(a: readonly CallRate[], b: readonly CallRate[], f: (x: CallRate) => number): number {
  return median(a.map((x, i) => f(x) / (b[i] ? f(b[i]) : Number.NaN)));
}

const cps = (x: CallRate) => x.callsPerS;
const srv = (x: CallRate) => x.serverUsPerCall;
const cli = (x: CallRate) => x.cpuUsPerCall;
const med = (xs: readonly CallRate[], f: (x: CallRate) => number) => median(xs.map(f));
const times = (x: number) => `${fmt(x, 2)}×`;

function verdict(x: number): string {
  if (!Number.isFinite(x)) return '—';
  return x >= HTTP_TARGET ? 'met' : `missed by ${fmt(HTTP_TARGET / x, 2)}×`;
}

function rows(label: string, r: HttpRates): string[][] {
  const main = perRound(r.serve, r.sdk, cps);
  return [
    [
      `${label}, calls/s`,
      fmt(med(r.serve, cps), 0),
      fmt(med(r.sdk, cps), 0),
      times(main),
      `≥ ${HTTP_TARGET}×`,
      verdict(main),
    ],
    [
      '   ↳ serve, 2026 stateless POSTs',
      fmt(med(r.modern, cps), 0),
      fmt(med(r.sdk, cps), 0),
      times(perRound(r.modern, r.sdk, cps)),
      '',
      '',
    ],
    [
      '   ↳ ÷ the bare node:http floor (same rounds)',
      `${times(perRound(r.serve, r.floor, cps))} (2026: ${times(perRound(r.modern, r.floor, cps))})`,
      times(perRound(r.sdk, r.floor, cps)),
      '',
      '',
      `floor ${fmt(med(r.floor, cps), 0)}/s`,
    ],
    ...bareRows(r),
    ...baselineRows(r),
    [
      '   ↳ HTTP server main-thread CPU per call',
      `${fmt(med(r.serve, srv), 0)} µs (2026: ${fmt(med(r.modern, srv), 0)} µs)`,
      `${fmt(med(r.sdk, srv), 0)} µs`,
      times(perRound(r.serve, r.sdk, srv)),
      '',
      `floor ${fmt(med(r.floor, srv), 0)} µs`,
    ],
    [
      '   ↳ the client (this process) CPU per call',
      `${fmt(med(r.serve, cli), 0)} µs (2026: ${fmt(med(r.modern, cli), 0)} µs)`,
      `${fmt(med(r.sdk, cli), 0)} µs`,
      '',
      '',
      `floor ${fmt(med(r.floor, cli), 0)} µs`,
    ],
  ];
}

/** The same servers driven by the bare HTTP client: what they can do when the client is not the bound. */
function bareRows(r: HttpRates): string[][] {
  if (!r.bareServe || !r.bareSdk || !r.bareFloor) return [];
  const ratio = perRound(r.bareServe, r.bareSdk, cps);
  return [
    [
      '   ↳ driven by a bare HTTP client, calls/s',
      fmt(med(r.bareServe, cps), 0),
      fmt(med(r.bareSdk, cps), 0),
      times(ratio),
      `≥ ${HTTP_TARGET}×`,
      verdict(ratio),
    ],
    [
      '   ↳ bare client: server CPU per call; client CPU per call',
      `${fmt(med(r.bareServe, srv), 0)} µs; ${fmt(med(r.bareServe, cli), 0)} µs`,
      `${fmt(med(r.bareSdk, srv), 0)} µs; ${fmt(med(r.bareSdk, cli), 0)} µs`,
      times(perRound(r.bareServe, r.bareSdk, srv)),
      '',
      `floor ${fmt(med(r.bareFloor, cps), 0)}/s, ${fmt(med(r.bareFloor, srv), 0)} µs`,
    ],
  ];
}

/** The baseline build beside (before/after in one run): its calls/s, and this build's ÷ its, per round. */
function baselineRows(r: HttpRates): string[][] {
  if (!r.base || !r.baseModern) return [];
  return [
    [
      '   ↳ baseline build: 2025 / 2026 calls/s',
      `${fmt(med(r.base, cps), 0)} / ${fmt(med(r.baseModern, cps), 0)}`,
      fmt(med(r.sdk, cps), 0),
      `${times(perRound(r.base, r.sdk, cps))} / ${times(perRound(r.baseModern, r.sdk, cps))}`,
      '',
      `this ÷ baseline ${times(perRound(r.serve, r.base, cps))} / ${times(perRound(r.modern, r.baseModern, cps))}`,
    ],
    [
      '   ↳ baseline build: server CPU per call, 2025 / 2026',
      `${fmt(med(r.base, srv), 0)} / ${fmt(med(r.baseModern, srv), 0)} µs`,
      `${fmt(med(r.sdk, srv), 0)} µs`,
      '',
      '',
      `this ÷ baseline ${times(perRound(r.serve, r.base, srv))} / ${times(perRound(r.modern, r.baseModern, srv))}`,
    ],
    ...(r.bareBase && r.bareServe
      ? [
          [
            '   ↳ baseline build, bare client: calls/s; server CPU per call',
            `${fmt(med(r.bareBase, cps), 0)}/s; ${fmt(med(r.bareBase, srv), 0)} µs`,
            '',
            '',
            '',
            `this ÷ baseline ${times(perRound(r.bareServe, r.bareBase, cps))}; CPU ${times(perRound(r.bareServe, r.bareBase, srv))}`,
          ],
        ]
      : []),
  ];
}

/** The table and the lines a reader needs to trust it, as markdown. */
export function renderServeHttp(f: HttpFigures): string {
  const header = ['measure', 'serve --http', 'SDK proxy', 'serve ÷ SDK', 'target', 'verdict'];
  const table = [...rows('11. serve --http, sequential', f.seq)];
  for (const n of f.plan.inFlight) {
    const r = f.par[n];
    if (r) table.push(...rows(`    ${n} in flight`, r));
  }
  const details = [
    `- node ${f.env.node}, ${f.env.cores} cores, serve loaded from ${f.env.oursFrom}${f.env.baseline ? `, baseline build ${f.env.baseline}` : ''}, load average ${fmt(f.env.load, 2)} at start, ${loadavg()
      .map((x) => fmt(x, 2))
      .join(
        ' ',
      )} (1, 5, 15 min) at the end; ${f.plan.rounds} interleaved rounds of ${fmt(f.plan.roundMs / 1000, 1)} s of calls per contender and figure (medians; ratios per round); whole run ${fmt(f.totalMs / 1000, 0)} s.`,
    `- Each server is its own process over its own fixture server: \`serve --http\` (the CLI, one fixture server \`fx\`), the SDK proxy (its \`StreamableHTTPServerTransport\` and \`Server\` per session, forwarding to one SDK \`Client\` over stdio), the floor (node:http, one JSON body per POST, a plain JSON-RPC pipe). The client of all is the SDK v1 \`Client\` over \`StreamableHTTPClientTransport\` in one 2025 session each (the floor answers every call with a JSON body, serve each call answered within 50 ms with nothing before it, the proxy none: an SSE stream each${process.env.HTTP_BENCH_PROXY_JSON === '1' ? '; in this run HTTP_BENCH_PROXY_JSON=1: a JSON body each' : ''}); the 2026 row is the SDK v2 client pinned to 2026-07-28 against the same serve process. The "bare HTTP client" rows drive the same three processes with node:http and kept-alive sockets, one 2025 session each, reading each answer as JSON or as \`data:\` lines (bench/lib/http-bare-client.ts).`,
  ];
  return `${markdownTable(header, table)}\n\n${details.join('\n')}`;
}
