// Soak: a fleet of fixture servers, some with faults of their own, under paced random calls (crashes and hangs
// among them) for as long as asked; prints figures, asserts nothing. The bounded version with assertions is
// test/soak.test.ts. Run: node --import tsx bench/soak.ts [--minutes 10] [--servers 24] [--rate 100]
//   [--seed N] [--trust]   (--trust: the real trust gate, hashing the executable before every spawn)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { installReapHooks } from '../src/process/ledger.js';
import { createSupervisor } from '../src/supervisor/supervisor.js';
import { runSoak, type SoakReport } from '../test/faults/soak-load.js';

const MiB = 1024 * 1024;
const mib = (bytes: number) => `${(bytes / MiB).toFixed(1)} MiB`;

/** The figures of a (finished or running) soak as `name value` lines. */
function figures(r: SoakReport, elapsedMs: number): string[] {
  return [
    `calls          ${r.resolved} of ${r.issued} resolved (${((r.resolved / elapsedMs) * 1000).toFixed(1)} calls/s)`,
    `answers        ${r.ok} right, ${r.errors} ERROR:, ${r.wrong.length} wrong`,
    `restarts       ${r.restarts}`,
    `worst overrun  ${r.worstOverrunMs.toFixed(0)} ms past its timeout (${r.slowest?.tool ?? '-'})`,
    `heap           start ${mib(r.heapStart)}, max ${mib(r.heapMax)}, after ${mib(r.heapAfter)}${r.forcedGc ? ' (after GC)' : ' (medians)'}`,
    `descriptors    start ${r.fdStart}, max ${r.fdMax}, after ${r.fdAfter} (all kinds: ${r.fdAllStart} → ${r.fdAllAfter})`,
    `processes      ${r.pidsSeen} seen, ${r.pidsLeft.length} left; ${r.groupsLeft} groups left in the ledger`,
    `stop           ${r.stopMs.toFixed(0)} ms`,
  ];
}

/** Runs the soak with command-line options and prints its figures. */
export async function runSoakBench(argv: string[] = process.argv.slice(2)): Promise<SoakReport> {
  const { values } = parseArgs({
    args: argv,
    options: {
      minutes: { type: 'string', default: '1' },
      servers: { type: 'string', default: '24' },
      rate: { type: 'string', default: '100' },
      seed: { type: 'string' },
      trust: { type: 'boolean', default: false },
    },
  });
  const durationMs = Number(values.minutes) * 60_000;
  const servers = Number(values.servers);
  const calls = Math.max(1, Math.round((Number(values.rate) * durationMs) / 1000));
  const seed = values.seed === undefined ? Date.now() % 1e9 : Number(values.seed);
  if (![durationMs, servers, calls, seed].every((n) => Number.isFinite(n) && n > 0)) {
    throw new Error('usage: bench/soak.ts [--minutes N] [--servers N] [--rate calls/s] [--seed N] [--trust]');
  }
  const store = mkdtempSync(join(tmpdir(), 'mcp-sup-soak-'));
  const unhook = installReapHooks();
  console.log(`soak: ${servers} servers, ${calls} calls over ${values.minutes} min, seed ${seed}`);
  const t0 = Date.now();
  let lastPrint = t0;
  try {
    const report = await runSoak({
      servers,
      durationMs,
      calls,
      maxInFlight: 64,
      seed,
      trust: values.trust,
      create: (config, options) => ({
        sup: createSupervisor(config, {
          approve: () => true,
          trustStore: join(store, 'trust.json'),
          ...options,
        }),
      }),
      onTick: (r) => {
        if (Date.now() - lastPrint < 10_000) return;
        lastPrint = Date.now();
        const s = Math.round((lastPrint - t0) / 1000);
        console.log(
          `  ${s}s: ${r.resolved} calls, ${r.restarts} restarts, heap ${mib(r.heapMax)} max, ${r.fdMax} fds max`,
        );
      },
    });
    for (const line of figures(report, report.wallMs)) console.log(line);
    for (const w of report.wrong.slice(0, 5)) console.log(`wrong answer: ${JSON.stringify(w)}`);
    return report;
  } finally {
    unhook();
    rmSync(store, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runSoakBench();
}
