// Framing benchmark: the same tools/call result bytes through a plain loop, the SDK's ReadBuffer, the
// LineFramer, and the StreamDecoder inline and on the worker pool. Run: node --import tsx bench/framing.ts
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { setImmediate as immediate } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { ReadBuffer } from '@modelcontextprotocol/sdk/shared/stdio.js';
import { LineFramer } from '../src/framing/line-framer.js';
import { StreamDecoder } from '../src/framing/stream-decoder.js';
import { DEFAULT_NICE_INCREMENT, FramePool } from '../src/workers/frame-pool.js';

const KiB = 1024;
const MiB = 1024 * KiB;
const CHUNK = 64 * KiB;
const RUNS = 5;
// The SDK's ReadBuffer is quadratic in a line's chunks: at 32 MiB one run takes seconds, and a median of fewer runs says
// the same; the budget keeps the whole `npm run bench` under three minutes.
const SDK_BUDGET_MS = 8_000;

interface Size {
  label: string;
  lineBytes: number;
  totalBytes: number;
}
const SIZES: Size[] = [
  { label: '200 B', lineBytes: 200, totalBytes: 4 * MiB },
  { label: '64 KiB', lineBytes: 64 * KiB, totalBytes: 8 * MiB },
  { label: '1 MiB', lineBytes: MiB, totalBytes: 16 * MiB },
  { label: '32 MiB', lineBytes: 32 * MiB, totalBytes: 32 * MiB },
];

/** A sink the bytes are fed to; `done` resolves once every message has come out. */
interface Sink {
  push(chunk: Buffer): void;
  done(): Promise<void>;
}
interface Variant {
  key: string;
  name: string;
  make(expected: number): Sink;
  /** Only at these line sizes (default: all). */
  only?: string[];
}

function syncSink(expected: number, push: (chunk: Buffer) => number): Sink {
  let count = 0;
  return {
    push: (chunk) => {
      count += push(chunk);
    },
    done: () => (count === expected ? Promise.resolve() : Promise.reject(new Error(`${count}/${expected}`))),
  };
}

/**
 * (a) the plain loop: carry-over as a list, indexOf per chunk, one concat and JSON.parse per line, the parsed
 * messages handed back per chunk (as any framer must hand them to someone).
 */
function plainLoop(expected: number): Sink {
  let parts: Buffer[] = [];
  return syncSink(expected, (chunk) => {
    const out: unknown[] = [];
    let start = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
      let line: string;
      if (parts.length > 0) {
        parts.push(chunk.subarray(start, nl));
        line = Buffer.concat(parts).toString('utf8');
        parts = [];
      } else line = chunk.toString('utf8', start, nl);
      out.push(JSON.parse(line));
      start = nl + 1;
    }
    if (start < chunk.length) parts.push(chunk.subarray(start));
    return out.length;
  });
}

function decoderSink(expected: number, pool: FramePool | undefined, inlineMaxBytes?: number): Sink {
  let count = 0;
  let resolve: () => void = () => undefined;
  const finished = new Promise<void>((r) => {
    resolve = r;
  });
  const decoder = new StreamDecoder({
    pool,
    ...(inlineMaxBytes === undefined ? {} : { inlineMaxBytes }),
    resultFor: () => ({ mode: 'text', maxBytes: 64 * KiB }),
    onEvent: (e) => {
      if (e.kind !== 'tool-result') throw new Error(`unexpected ${e.kind}`);
      if (++count === expected) resolve();
    },
  });
  return { push: (chunk) => decoder.push(chunk), done: () => finished.finally(() => decoder.close()) };
}

function variants(pool: FramePool): Variant[] {
  return [
    {
      key: 'z',
      name: '(z) floor: chunks fed, newlines counted',
      make: (expected) =>
        syncSink(expected, (chunk) => {
          let n = 0;
          for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, nl + 1)) n++;
          return n;
        }),
    },
    { key: 'a', name: '(a) plain indexOf + JSON.parse', make: plainLoop },
    {
      key: 'b',
      name: '(b) SDK ReadBuffer',
      make: (expected) => {
        const rb = new ReadBuffer({ maxBufferSize: 64 * MiB });
        return syncSink(expected, (chunk) => {
          rb.append(chunk);
          let n = 0;
          while (rb.readMessage() !== null) n++;
          return n;
        });
      },
    },
    {
      key: 'c',
      name: '(c) LineFramer inline',
      make: (expected) => {
        const framer = new LineFramer();
        return syncSink(expected, (chunk) => framer.push(chunk).length);
      },
    },
    { key: 'e', name: '(e) StreamDecoder inline + flatten', make: (n) => decoderSink(n, undefined) },
    { key: 'd', name: '(d) StreamDecoder pool + flatten', make: (n) => decoderSink(n, pool) },
    {
      key: 'f',
      name: '(f) as (d), inlineMaxBytes 16 KiB',
      make: (n) => decoderSink(n, pool, 16 * KiB),
      only: ['64 KiB'],
    },
  ];
}

/** One tools/call result line of exactly `bytes` bytes (before its newline), text with escapes and accents. */
function resultLine(id: number, bytes: number): string {
  const head = `{"jsonrpc":"2.0","id":${id},"result":{"content":[{"type":"text","text":"`;
  const end = '"}],"isError":false}}';
  const unit = 'Lorem ipsum dolor sit amet, café \\"quoted\\" line\\n';
  const room = Math.max(0, bytes - head.length - end.length);
  let text = unit.repeat(Math.ceil(room / unit.length)).slice(0, room);
  for (let over = Buffer.byteLength(text) - room; over > 0; over = Buffer.byteLength(text) - room) {
    text = text.slice(0, text.length - over);
  }
  while (text.endsWith('\\')) text = text.slice(0, -1);
  const padded = text + 'x'.repeat(room - Buffer.byteLength(text));
  return head + padded + end;
}

function streamFor(size: Size): { chunks: () => Buffer[]; messages: number; bytes: number } {
  const messages = Math.max(1, Math.round(size.totalBytes / (size.lineBytes + 1)));
  const whole = Buffer.from(
    Array.from({ length: messages }, (_, i) => `${resultLine(i + 1, size.lineBytes)}\n`).join(''),
  );
  // every chunk owns its ArrayBuffer, as a child's stdout chunks do (so the pool path may transfer them)
  const chunks = () => {
    const out: Buffer[] = [];
    for (let at = 0; at < whole.length; at += CHUNK) {
      const piece = Buffer.allocUnsafeSlow(Math.min(CHUNK, whole.length - at));
      whole.copy(piece, 0, at, at + piece.length);
      out.push(piece);
    }
    return out;
  };
  return { chunks, messages, bytes: whole.length };
}

interface Sample {
  wallMs: number;
  mainMs: number;
  cpuMs: number;
  p99Ms: number;
  maxMs: number;
}

/** CPU time of the main thread alone, in ms (Linux schedstat; NaN elsewhere): unlike ELU, not inflated by waiting for a core. */
function mainThreadCpuMs(): number {
  try {
    return Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
  } catch {
    return Number.NaN;
  }
}

/** A full GC between runs, so no run pays for the garbage of the one before. */
const collect: () => void = (() => {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as (() => void) | undefined;
  return typeof gc === 'function' ? gc : () => undefined;
})();

async function measure(variant: Variant, stream: ReturnType<typeof streamFor>): Promise<Sample> {
  const chunks = stream.chunks();
  const sink = variant.make(stream.messages);
  collect();
  await immediate();
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const elu0 = performance.eventLoopUtilization();
  const cpu0 = mainThreadCpuMs();
  const t0 = performance.now();
  for (const chunk of chunks) {
    await immediate();
    sink.push(chunk);
  }
  await sink.done();
  const wallMs = performance.now() - t0;
  const cpuMs = mainThreadCpuMs() - cpu0;
  const elu = performance.eventLoopUtilization(elu0);
  delay.disable();
  return { wallMs, mainMs: elu.active, cpuMs, p99Ms: delay.percentile(99) / 1e6, maxMs: delay.max / 1e6 };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
const fmt = (x: number, digits = 2) => (Number.isFinite(x) ? x.toFixed(digits) : '—');

export interface FramingRow {
  size: string;
  variant: string;
  key: string;
  runs: number;
  mbPerS: number;
  /** Throughput per second of main-thread CPU: what the wall figure would be on an idle core. */
  mbPerCpuS: number;
  msPerMiB: number;
  cpuPerMiB: number;
  p99Ms: number;
  maxMs: number;
}

/** Runs the framing benchmark and prints one markdown table per size, with ratios to (a) and (b). */
export async function runFramingBench(): Promise<void> {
  // FRAMING_THREADS / FRAMING_NICE override the pool's defaults, for tuning
  const { FRAMING_THREADS: threads, FRAMING_NICE: nice } = process.env;
  const pool = new FramePool({
    ...(threads ? { maxThreads: Number(threads) } : {}),
    ...(nice ? { niceIncrement: Number(nice) } : {}),
  });
  const all = variants(pool);
  const rows: FramingRow[] = [];
  const load = loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  console.log(
    `framing bench: node ${process.version}, ${pool.maxThreads} worker thread(s) at nice +${nice ?? DEFAULT_NICE_INCREMENT}, ${RUNS} runs, 64 KiB chunks, load ${load}`,
  );
  try {
    // FRAMING_SIZES="1 MiB,32 MiB" / FRAMING_VARIANTS="c,d" run only those (for tuning); targets need all
    const only = process.env.FRAMING_SIZES?.split(',').map((x) => x.trim());
    for (const size of SIZES.filter((s) => only === undefined || only.includes(s.label))) {
      const keys = process.env.FRAMING_VARIANTS?.split(',');
      const vs = all.filter(
        (v) =>
          (v.only === undefined || v.only.includes(size.label)) &&
          (keys === undefined || ['a', 'b', ...keys].includes(v.key)),
      );
      const stream = streamFor(size);
      const samples = new Map<string, Sample[]>(vs.map((v) => [v.key, []]));
      let sdkSpent = 0;
      const skipped = new Set<string>();
      for (const v of vs)
        await measure(v, streamFor({ ...size, totalBytes: Math.min(size.totalBytes, 2 * MiB) }));
      for (let run = 0; run < RUNS; run++) {
        for (let k = 0; k < vs.length; k++) {
          const v = vs[(k + run) % vs.length]!;
          if (skipped.has(v.key)) continue;
          const s = await measure(v, stream);
          samples.get(v.key)!.push(s);
          if (v.key === 'b') {
            sdkSpent += s.wallMs;
            if ((sdkSpent / (run + 1)) * RUNS > SDK_BUDGET_MS) skipped.add('b');
          }
        }
      }
      const mib = stream.bytes / MiB;
      for (const v of vs) {
        const ss = samples.get(v.key)!;
        rows.push({
          size: size.label,
          variant: v.name,
          key: v.key,
          runs: ss.length,
          mbPerS: median(ss.map((s) => stream.bytes / 1e6 / (s.wallMs / 1000))),
          mbPerCpuS: median(ss.map((s) => stream.bytes / 1e6 / (s.cpuMs / 1000))),
          msPerMiB: median(ss.map((s) => s.mainMs / mib)),
          cpuPerMiB: median(ss.map((s) => s.cpuMs / mib)),
          p99Ms: median(ss.map((s) => s.p99Ms)),
          maxMs: median(ss.map((s) => s.maxMs)),
        });
      }
      printSize(size, stream, rows, skipped.has('b'));
    }
  } finally {
    await pool.close();
  }
  if (SIZES.every((s) => rows.some((r) => r.size === s.label))) printTargets(rows);
}

function printSize(
  size: Size,
  stream: { messages: number; bytes: number },
  rows: FramingRow[],
  sdkCut: boolean,
) {
  const mine = rows.filter((r) => r.size === size.label);
  const a = mine.find((r) => r.key === 'a')!;
  const b = mine.find((r) => r.key === 'b')!;
  console.log(
    `\n### ${size.label} lines — ${stream.messages} messages, ${fmt(stream.bytes / MiB, 1)} MiB per run\n`,
  );
  console.log(
    '| variant | runs | MB/s | ×(a) | MB/CPU-s | ×(a) | main ms/MiB (ELU) | ×(a) | ×(b) | main CPU ms/MiB | ×(b) | loop p99 ms | ×(a) | ×(b) | loop max ms |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of mine) {
    console.log(
      `| ${r.variant} | ${r.runs} | ${fmt(r.mbPerS, 0)} | ${fmt(r.mbPerS / a.mbPerS)} | ` +
        `${fmt(r.mbPerCpuS, 0)} | ${fmt(r.mbPerCpuS / a.mbPerCpuS)} | ${fmt(r.msPerMiB)} | ` +
        `${fmt(r.msPerMiB / a.msPerMiB)} | ${fmt(r.msPerMiB / b.msPerMiB)} | ${fmt(r.cpuPerMiB)} | ` +
        `${fmt(r.cpuPerMiB / b.cpuPerMiB)} | ${fmt(r.p99Ms, 1)} | ${fmt(r.p99Ms / a.p99Ms)} | ` +
        `${fmt(r.p99Ms / b.p99Ms)} | ${fmt(r.maxMs, 1)} |`,
    );
  }
  if (sdkCut)
    console.log(
      `\n(b) stopped after ${b.runs} run(s): ${RUNS} runs would take over ${SDK_BUDGET_MS / 1000} s`,
    );
}

function printTargets(rows: FramingRow[]): void {
  const get = (size: string, key: string) => rows.find((r) => r.size === size && r.key === key)!;
  const check = (ok: boolean) => (ok ? 'met' : 'MISSED');
  const line = (text: string, ok: boolean, cpuText: string, cpuOk: boolean) =>
    console.log(`- ${text}: ${check(ok)}; by main-thread CPU ${cpuText}: ${check(cpuOk)}`);
  console.log('\n### Targets (wall/ELU figures first, then the same from main-thread CPU time)\n');
  for (const s of SIZES) {
    const c = get(s.label, 'c');
    const a = get(s.label, 'a');
    const wall = c.mbPerS / a.mbPerS;
    const cpu = c.mbPerCpuS / a.mbPerCpuS;
    line(
      `LineFramer throughput at ${s.label} ≥ 0.9× the plain loop: ${fmt(wall)}×`,
      wall >= 0.9,
      `${fmt(cpu)}×`,
      cpu >= 0.9,
    );
  }
  for (const key of ['c', 'd']) {
    const big = get('32 MiB', key);
    const one = get('1 MiB', key);
    const growth = big.msPerMiB / one.msPerMiB;
    const cpuGrowth = big.cpuPerMiB / one.cpuPerMiB;
    const who = key === 'c' ? 'LineFramer' : 'hybrid';
    line(
      `${who} cost per MiB, 32 MiB ≤ 1.1× 1 MiB: ${fmt(growth)}×`,
      growth <= 1.1,
      `${fmt(cpuGrowth)}×`,
      cpuGrowth <= 1.1,
    );
  }
  const d = get('1 MiB', 'd');
  const b = get('1 MiB', 'b');
  const rel = d.msPerMiB / b.msPerMiB;
  const cpuRel = d.cpuPerMiB / b.cpuPerMiB;
  line(
    `hybrid main thread at 1 MiB ≤ 0.2× the SDK's and ≤ 1.5 ms/MiB: ${fmt(d.msPerMiB)} ms/MiB, ${fmt(rel)}×`,
    rel <= 0.2 && d.msPerMiB <= 1.5,
    `${fmt(d.cpuPerMiB)} ms/MiB, ${fmt(cpuRel)}×`,
    cpuRel <= 0.2 && d.cpuPerMiB <= 1.5,
  );
  for (const s of ['1 MiB', '32 MiB']) {
    const p = get(s, 'd').p99Ms / get(s, 'b').p99Ms;
    console.log(`- hybrid event-loop p99 at ${s} ≤ 0.5× the SDK's: ${fmt(p)}×: ${check(p <= 0.5)}`);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await runFramingBench();
