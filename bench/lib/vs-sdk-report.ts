// Turns the vs-SDK figures into one markdown table (medians) plus the details a reader needs to trust it.
import { loadavg } from 'node:os';
import type { BigCost, CallRate } from './call-rounds.js';
import type { ColdStartSample } from './cold-start.js';
import type { OursHuge, SdkHuge } from './huge-result.js';
import type { IdleMemory } from './idle-memory.js';
import type { NotificationFigures } from './large-notification.js';
import type { ReadFigures } from './large-read.js';
import type { MemorySample } from './memory-per-server.js';
import type { RestartSample } from './restart.js';
import { fmt, median, ratio } from './stats.js';
import { markdownTable } from './table.js';

/** Everything one run measured, raw (every round kept). */
export interface VsSdkFigures {
  env: { node: string; cores: number; workerThreads: number; oursFrom: string; sdk: string; load: number };
  plan: {
    rounds: number;
    sequentialCalls: number;
    concurrentCalls: number;
    inFlight: number;
    bigBytes: number;
    bigCount: number;
    hugeBytes: number;
    hugeRounds: number;
    restartRounds: number;
    notificationBytes: number;
    readBytes: number;
  };
  seq: Rates;
  /** The same sequential rounds with this process and every server on one core; undefined where not possible. */
  seqOneCore: Rates | undefined;
  par: Rates;
  big: { ours: BigCost[]; sdk: BigCost[]; floor: BigCost[] };
  huge: { ours: OursHuge[]; sdk: SdkHuge; sdkRaised: SdkHuge };
  cold: ColdStartSample[];
  restart: { store: RestartSample[]; bypass: RestartSample[] };
  memory: MemorySample[];
  notification: NotificationFigures;
  read: ReadFigures;
  idle: IdleMemory;
  totalMs: number;
}

type Goal = { op: '≥' | '≤'; value: number; unit: '×' | ' ms' };

function verdict(x: number, goal: Goal): string {
  if (!Number.isFinite(x)) return '—';
  const ok = goal.op === '≥' ? x >= goal.value : x <= goal.value;
  if (ok) return 'met';
  if (goal.unit === ' ms') return `missed by ${fmt(x - goal.value, 0)} ms`;
  return `missed by ${fmt(goal.op === '≥' ? goal.value / x : x / goal.value, 2)}×`;
}

const goalText = (g: Goal) => `${g.op} ${g.value}${g.unit}`;
const med = <T>(xs: readonly T[], f: (x: T) => number) => median(xs.map(f));
const kib = (bytes: number) => `${fmt(bytes / 1024, 0)} KiB`;

function compare(label: string, ours: number, sdk: number, unit: string, digits: number, goal?: Goal) {
  return [
    label,
    `${fmt(ours, digits)}${unit}`,
    `${fmt(sdk, digits)}${unit}`,
    ratio(ours, sdk),
    goal ? goalText(goal) : '',
    goal ? verdict(ours / sdk, goal) : '',
  ];
}

/** Call rates per contender, one sample per round: `bare` is a McpConnection alone, `loop` the bare JSON-RPC loop. */
export type Rates = { ours: CallRate[]; sdk: CallRate[]; bare: CallRate[]; loop: CallRate[] };

/** The median over rounds of a÷b within each round: both ran in the same round, under the same load. */
export function roundRatio(a: readonly CallRate[], b: readonly CallRate[]): number {
  return median(a.map((x, i) => x.callsPerS / (b[i]?.callsPerS ?? Number.NaN)));
}

function vsLoop(label: string, r: Rates, who: CallRate[], goal?: Goal): string[] {
  const x = roundRatio(who, r.loop);
  const cps = (xs: CallRate[]) => med(xs, (c) => c.callsPerS);
  return [
    label,
    fmt(cps(who), 0),
    `loop ${fmt(cps(r.loop), 0)}`,
    `${fmt(x, 2)}× loop`,
    goal ? `${goal.op} ${goal.value}× loop` : '',
    goal ? verdict(x, goal) : '',
  ];
}

function callRows(
  label: string,
  r: Rates,
  goals: { sdk?: Goal | undefined; loop?: Goal | undefined },
): string[][] {
  const cps = (xs: CallRate[]) => med(xs, (x) => x.callsPerS);
  const cpu = (xs: CallRate[]) => med(xs, (x) => x.cpuUsPerCall);
  const srv = (xs: CallRate[]) => med(xs, (x) => x.serverUsPerCall);
  const main = compare(`${label}, calls/s`, cps(r.ours), cps(r.sdk), '', 0, goals.sdk);
  // per-round ratio, as for the loop rows: the medians of two columns may come from different rounds
  main[3] = `${fmt(roundRatio(r.ours, r.sdk), 2)}×`;
  if (goals.sdk) main[5] = verdict(roundRatio(r.ours, r.sdk), goals.sdk);
  return [
    main,
    vsLoop('   ↳ ours ÷ the bare JSON-RPC loop (same rounds)', r, r.ours, goals.loop),
    vsLoop('   ↳ SDK ÷ the bare JSON-RPC loop', r, r.sdk),
    vsLoop('   ↳ bare McpConnection (no facade) ÷ the loop', r, r.bare),
    compare('   ↳ host CPU per call, facade', cpu(r.ours), cpu(r.sdk), ' µs', 0),
    compare('   ↳ host CPU per call, bare McpConnection', cpu(r.bare), cpu(r.sdk), ' µs', 0),
    compare('   ↳ host CPU per call, bare JSON-RPC loop', cpu(r.loop), cpu(r.sdk), ' µs', 0),
    compare('   ↳ fixture server CPU per call (same server)', srv(r.ours), srv(r.sdk), ' µs', 0),
  ];
}

/** Row 1 again with every process on one core: no wake-up crosses cores, so the code is what differs. */
function oneCoreRows(r: Rates | undefined): string[][] {
  if (!r) return [['   ↳ all on one core (taskset)', 'not measured: taskset unavailable', '—', '', '', '']];
  const cpu = (xs: CallRate[]) => med(xs, (x) => x.cpuUsPerCall);
  return [
    vsLoop('   ↳ all on one core (taskset): ours ÷ the loop', r, r.ours),
    vsLoop('   ↳ all on one core: SDK ÷ the loop', r, r.sdk),
    compare('   ↳ all on one core: host CPU per call, ours vs the loop', cpu(r.ours), cpu(r.loop), ' µs', 0),
  ];
}

function sdkHugeCell(s: SdkHuge): string {
  if (s.outcome === 'ok') return `ok in ${fmt(s.wallMs, 0)} ms (${fmt(s.msPerMiB, 1)} main ms/MiB)`;
  return `fails after ${fmt(s.wallMs, 0)} ms: “${s.outcome}”`;
}

function tableRows(f: VsSdkFigures): string[][] {
  const { plan } = f;
  const bigMib = (plan.bigBytes / 1048576).toString();
  const hugeMib = (plan.hugeBytes / 1048576).toString();
  const coldBare = med(f.cold, (s) => s.bare);
  const rows: string[][] = [
    ...callRows(`1. sequential echo (${plan.sequentialCalls}/round)`, f.seq, {
      sdk: { op: '≥', value: 1, unit: '×' },
      loop: { op: '≥', value: 0.9, unit: '×' },
    }),
    ...oneCoreRows(f.seqOneCore),
    ...callRows(`2. ${plan.inFlight}-in-flight echo (${plan.concurrentCalls}/round)`, f.par, {
      loop: { op: '≥', value: 0.85, unit: '×' },
    }),
    compare(
      `3. main thread per MiB, ${plan.bigCount} × ${bigMib} MiB results`,
      med(f.big.ours, (b) => b.msPerMiB),
      med(f.big.sdk, (b) => b.msPerMiB),
      ' ms',
      2,
      { op: '≤', value: 0.2, unit: '×' },
    ),
    compare(
      '   ↳ main-thread CPU per MiB (schedstat)',
      med(f.big.ours, (b) => b.cpuMsPerMiB),
      med(f.big.sdk, (b) => b.cpuMsPerMiB),
      ' ms',
      2,
    ),
    compare(
      '   ↳ floor: read the pipe, count newlines (CPU)',
      med(f.big.floor, (b) => b.cpuMsPerMiB),
      med(f.big.sdk, (b) => b.cpuMsPerMiB),
      ' ms',
      2,
    ),
    compare(
      '   ↳ throughput, MiB/s',
      med(f.big.ours, (b) => b.mibPerS),
      med(f.big.sdk, (b) => b.mibPerS),
      '',
      0,
    ),
    compare(
      '4. event-loop delay p99 while ingesting',
      med(f.big.ours, (b) => b.p99Ms),
      med(f.big.sdk, (b) => b.p99Ms),
      ' ms',
      1,
      { op: '≤', value: 0.4, unit: '×' },
    ),
    compare(
      // the p99 of a client that does nothing but read: the least any client reading the pipe can reach this run
      '   ↳ floor: read the pipe, count newlines',
      med(f.big.floor, (b) => b.p99Ms),
      med(f.big.sdk, (b) => b.p99Ms),
      ' ms',
      1,
    ),
    compare(
      '   ↳ event-loop delay max',
      med(f.big.ours, (b) => b.maxMs),
      med(f.big.sdk, (b) => b.maxMs),
      ' ms',
      1,
    ),
  ];
  const oursOk = f.huge.ours.every((h) => h.ok);
  rows.push([
    `5. one ${hugeMib} MiB result`,
    `${oursOk ? 'ok' : 'FAILED'} in ${fmt(
      med(f.huge.ours, (h) => h.wallMs),
      0,
    )} ms, capped to ${kib(f.huge.ours[0]?.answerBytes ?? 0)}`,
    sdkHugeCell(f.huge.sdk),
    '—',
    'ours succeeds',
    oursOk ? 'met' : 'missed',
  ]);
  rows.push([
    `   ↳ SDK with ${f.huge.sdkRaised.label}`,
    `${fmt(
      med(f.huge.ours, (h) => h.msPerMiB),
      2,
    )} main ms/MiB, p99 ${fmt(
      med(f.huge.ours, (h) => h.p99Ms),
      1,
    )} ms`,
    `${sdkHugeCell(f.huge.sdkRaised)}, p99 ${fmt(f.huge.sdkRaised.p99Ms, 0)} ms`,
    ratio(
      med(f.huge.ours, (h) => h.wallMs),
      f.huge.sdkRaised.wallMs,
    ),
    '',
    '',
  ]);
  const sdkConnect = med(f.cold, (s) => s.sdkConnect);
  rows.push(
    compare(
      '6. cold start → ready, start() vs connect()',
      med(f.cold, (s) => s.ours),
      sdkConnect,
      ' ms',
      0,
      { op: '≤', value: 1.1, unit: '×' },
    ),
    compare(
      '   ↳ ours with the trust gate bypassed',
      med(f.cold, (s) => s.oursBypass),
      sdkConnect,
      ' ms',
      0,
      { op: '≤', value: 1.1, unit: '×' },
    ),
    compare(
      '   ↳ bare connection vs connect() + listTools()',
      coldBare,
      med(f.cold, (s) => s.sdkConnectList),
      ' ms',
      0,
    ),
  );
  for (const m of f.memory) {
    rows.push([
      `7. host memory per server, n = ${m.n}: RSS / heap+external (ours: gate bypassed)`,
      `${kib(m.oursRss)} / ${kib(m.oursHeap)}`,
      `${kib(m.sdkRss)} / ${kib(m.sdkHeap)}`,
      `${ratio(m.oursRss, m.sdkRss)} / ${ratio(m.oursHeap, m.sdkHeap)}`,
      '',
      '',
    ]);
    if (m.shippedRss !== undefined && m.shippedHeap !== undefined)
      rows.push([
        '   ↳ ours as shipped (trust store hashes the executable)',
        `${kib(m.shippedRss)} / ${kib(m.shippedHeap)}`,
        `${kib(m.sdkRss)} / ${kib(m.sdkHeap)}`,
        `${ratio(m.shippedRss, m.sdkRss)} / ${ratio(m.shippedHeap, m.sdkHeap)}`,
        '',
        '',
      ]);
  }
  for (const [label, samples] of [
    ['8. restart: crash → ready − backoff', f.restart.store],
    ['   ↳ ours with the trust gate bypassed', f.restart.bypass],
  ] as const) {
    const respawn = med(samples, (s) => s.respawnMs);
    const overhead = med(samples, (s) => s.respawnMs - s.coldMs);
    rows.push([
      label,
      `${fmt(respawn, 0)} ms (overhead ${fmt(overhead, 0)} ms)`,
      'never restarts',
      '—',
      '≤ 20 ms overhead',
      verdict(overhead, { op: '≤', value: 20, unit: ' ms' }),
    ]);
  }
  rows.push(...largeLineRows(f));
  return rows;
}

/** One large notification's worst stall (ours, the SDK, ours inline only), and the idle fleet's memory. */
function largeLineRows(f: VsSdkFigures): string[][] {
  const n = f.notification;
  const max = (xs: NotificationFigures['ours']) => med(xs, (c) => c.maxMs);
  const goal: Goal = { op: '≤', value: 50, unit: ' ms' };
  const { idle } = f;
  return [
    [
      `9. one ${fmt(n.bytes / 1048576, 0)} MiB notification (dense JSON): event-loop delay max`,
      `${fmt(max(n.ours), 1)} ms`,
      `${fmt(max(n.sdk), 1)} ms`,
      ratio(max(n.ours), max(n.sdk)),
      goalText(goal),
      verdict(max(n.ours), goal),
    ],
    compare('   ↳ ours without worker threads (all inline)', max(n.inline), max(n.sdk), ' ms', 1),
    compare(
      '   ↳ main-thread busy time (ELU) while it arrives',
      med(n.ours, (c) => c.activeMs),
      med(n.sdk, (c) => c.activeMs),
      ' ms',
      0,
    ),
    ...readRows(f.read),
    [
      `10. host memory per idle server, n = ${idle.n}: heap+external / RSS (gate bypassed)`,
      `${kib(idle.heap)} / ${kib(idle.rss)}`,
      '—',
      '—',
      '≤ 1024 KiB heap+external',
      idle.heap <= 1048576 ? 'met' : `missed by ${kib(idle.heap - 1048576)}`,
    ],
  ];
}

/** One large resources/read: the whole text is the caller's, so what counts is how much of it the host parses. */
function readRows(r: ReadFigures): string[][] {
  const mib = fmt(r.bytes / 1048576, 0);
  return [
    compare(
      `   ↳ one ${mib} MiB resources/read (text): main-thread busy time (ELU)`,
      med(r.ours, (c) => c.activeMs),
      med(r.sdk, (c) => c.activeMs),
      ' ms',
      0,
    ),
    compare(
      `   ↳ one ${mib} MiB resources/read (text): event-loop delay max`,
      med(r.ours, (c) => c.maxMs),
      med(r.sdk, (c) => c.maxMs),
      ' ms',
      1,
    ),
  ];
}

function details(f: VsSdkFigures): string[] {
  const big1 = med(f.big.ours, (b) => b.msPerMiB);
  const big32 = med(f.huge.ours, (h) => h.msPerMiB);
  const cpu1 = med(f.big.ours, (b) => b.cpuMsPerMiB);
  const cpu32 = med(f.huge.ours, (h) => h.cpuMsPerMiB);
  const r = f.restart.store;
  const rb = f.restart.bypass;
  const lines = [
    `- node ${f.env.node}, ${f.env.cores} cores, ${f.env.workerThreads} frame worker thread(s), ours loaded from ${f.env.oursFrom}, @modelcontextprotocol/sdk ${f.env.sdk}, load average ${fmt(f.env.load, 2)} at start, ${loadavg()
      .map((x) => fmt(x, 2))
      .join(
        ' ',
      )} (1, 5, 15 min) at the end; ${f.plan.rounds} interleaved rounds per figure (medians); whole run ${fmt(f.totalMs / 1000, 0)} s.`,
    `- 32 MiB vs 1 MiB, our main-thread cost per MiB: ${fmt(big32, 2)} vs ${fmt(big1, 2)} ms (${ratio(big32, big1)}; target ≤ 1.1×: ${verdict(big32 / big1, { op: '≤', value: 1.1, unit: '×' })}); by main-thread CPU ${fmt(cpu32, 2)} vs ${fmt(cpu1, 2)} ms (${ratio(cpu32, cpu1)}: ${verdict(cpu32 / cpu1, { op: '≤', value: 1.1, unit: '×' })}).`,
    `- one ${fmt(f.notification.bytes / 1048576, 0)} MiB notification, event-loop delay max per round: ours ${f.notification.ours.map((c) => fmt(c.maxMs, 0)).join(', ')} ms; inline only ${f.notification.inline.map((c) => fmt(c.maxMs, 0)).join(', ')} ms; SDK ${f.notification.sdk.map((c) => fmt(c.maxMs, 0)).join(', ')} ms. ${f.idle.n} idle servers started and stopped in ${fmt(f.idle.wallMs / 1000, 0)} s.`,
    `- SDK, 32 MiB with default options: rejection “${f.huge.sdk.outcome}”; first onerror after ${fmt(f.huge.sdk.firstErrorMs, 0)} ms; onerror saw ${f.huge.sdk.errors.map((e) => `“${e}”`).join(', ') || 'nothing'}; client usable afterwards: ${f.huge.sdk.usableAfter ? 'yes' : 'no'}.`,
    `- restart (as shipped): crash call → exit event ${fmt(
      med(r, (s) => s.detectMs),
      0,
    )} ms; backoff timer took ${fmt(
      med(r, (s) => s.backoffMs),
      0,
    )} ms (configured 50); exit → ready ${fmt(
      med(r, (s) => s.exitToReadyMs),
      0,
    )} ms. Gate bypassed: exit → ready ${fmt(
      med(rb, (s) => s.exitToReadyMs),
      0,
    )} ms. Overhead = respawn − the fixture's own cold start (a bare connection: spawn, initialize, tools/list, ${fmt(
      med(r, (s) => s.coldMs),
      0,
    )} ms) timed right after each crash, median of the differences.`,
  ];
  return lines;
}

/** The table and its detail lines, as markdown. */
export function renderVsSdk(f: VsSdkFigures): string {
  const header = ['measure', 'ours', 'SDK', 'ours ÷ SDK', 'target', 'verdict'];
  return `${markdownTable(header, tableRows(f))}\n\n${details(f).join('\n')}`;
}
