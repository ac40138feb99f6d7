// `npm run bench`: every benchmark in its own fresh node process (so one's heap, JIT state and worker threads
// never colour another's figures), one after another. Run: node --import tsx bench/run.ts [<name> | --one <name>]
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { cpuTicks, stolenText } from './lib/steal.js';

interface Bench {
  name: string;
  /** The module, relative to this file, and the function it exports. */
  file: string;
  exportName: string;
}

const BENCHES: Bench[] = [
  { name: 'framing', file: './framing.ts', exportName: 'runFramingBench' },
  { name: 'vs-sdk', file: './vs-sdk.ts', exportName: 'runVsSdkBench' },
  { name: 'serve-http', file: './serve-http.ts', exportName: 'runServeHttpBench' },
  { name: 'containers', file: './containers.ts', exportName: 'runContainersBench' },
  { name: 'load-balancer', file: './load-balancer.ts', exportName: 'runLoadBalancerBench' },
  { name: 'tool-search', file: './tool-search.ts', exportName: 'runToolSearchBench' },
  { name: 'scale', file: './scale.ts', exportName: 'runScaleBench' },
];

/** How long a finished benchmark may take to let go of its handles before that counts as a leak. */
const EXIT_GRACE_MS = 15_000;

/** Runs one benchmark in this process; a file that is missing or lacks the export is skipped, not an error. */
async function runOne(bench: Bench): Promise<void> {
  const url = new URL(bench.file, import.meta.url);
  if (!existsSync(fileURLToPath(url))) {
    console.log(`(${bench.name}: ${bench.file} not present, skipped)`);
    return;
  }
  const mod = (await import(url.href)) as Record<string, unknown>;
  const run = mod[bench.exportName];
  if (typeof run !== 'function') {
    console.log(`(${bench.name}: ${bench.file} does not export ${bench.exportName}(), skipped)`);
    return;
  }
  await (run as () => Promise<unknown>)();
  // every process and thread should be gone now; if something still holds the loop open, say what and fail
  setTimeout(() => {
    console.error(`${bench.name}: still open after the run: ${process.getActiveResourcesInfo().join(', ')}`);
    process.exit(1);
  }, EXIT_GRACE_MS).unref();
}

/** Runs one benchmark in a fresh child node (with --expose-gc), resolving its exit code. */
function runChild(bench: Bench): Promise<number> {
  const self = fileURLToPath(import.meta.url);
  const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', self, '--one', bench.name], {
    stdio: 'inherit',
  });
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  return new Promise((resolve) => {
    child.once('error', (err) => {
      console.error(`${bench.name}: could not start: ${err.message}`);
      resolve(1);
    });
    child.once('exit', (code, signal) => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

/** Runs every benchmark, each in its own process; exits non-zero if any failed. */
export async function runAllBenches(): Promise<number> {
  let failed = 0;
  for (const bench of BENCHES) {
    console.log(`\n## bench: ${bench.name}\n`);
    const t0 = performance.now();
    const ticks = cpuTicks();
    const code = await runChild(bench);
    const took = ((performance.now() - t0) / 1000).toFixed(0);
    console.log(`\n(${bench.name}: ${took} s, exit ${code}${stolenText(ticks, cpuTicks())})`);
    if (code !== 0) failed++;
  }
  return failed === 0 ? 0 : 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const at = process.argv.indexOf('--one');
  if (at >= 0) {
    const name = process.argv[at + 1];
    const bench = BENCHES.find((b) => b.name === name);
    if (!bench) {
      console.error(`unknown bench '${name}'; known: ${BENCHES.map((b) => b.name).join(', ')}`);
      process.exitCode = 2;
    } else await runOne(bench);
  } else {
    // `npm run bench -- scale`: that one, in its own child with --expose-gc, as a whole run would run it.
    const name = process.argv.slice(2).find((a) => !a.startsWith('-'));
    const bench = name === undefined ? undefined : BENCHES.find((b) => b.name === name);
    if (name !== undefined && !bench) {
      console.error(`unknown bench '${name}'; known: ${BENCHES.map((b) => b.name).join(', ')}`);
      process.exitCode = 2;
    } else process.exitCode = bench ? await runChild(bench) : await runAllBenches();
  }
}
