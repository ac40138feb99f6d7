import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { alive, cliProcesses, ensureBuilt, pidOf } from '../cli/helpers.js';
import { serveConformance } from './serve-fixtures.js';
import {
  assertNode22Installed,
  BASELINE,
  baselineMismatches,
  killSuites,
  NODE22_UNAVAILABLE,
  readBaseline,
  readResults,
  runSuite,
} from './suite.js';

if (NODE22_UNAVAILABLE)
  console.warn(`SKIPPED the conformance suite against serve --http: ${NODE22_UNAVAILABLE}`);

const cli = cliProcesses();
const suites = new Set<ChildProcess>();
const outDirs: string[] = [];
beforeAll(ensureBuilt, 120_000);
afterEach(async () => {
  killSuites(suites);
  await cli.reap();
  for (const d of outDirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe.skipIf(NODE22_UNAVAILABLE !== undefined)(
  'the official conformance suite against serve --http',
  () => {
    it('passes every server scenario except the baseline, whose every entry still fails for a stated reason', async () => {
      assertNode22Installed();
      const baseline = readBaseline();
      for (const name of baseline.server)
        expect(baseline.reasons[name], `reason for ${name}`).toMatch(/\w{10}/);
      const listedAnywhere = [...baseline.server, ...baseline.client];
      expect(Object.keys(baseline.reasons).filter((k) => !listedAnywhere.includes(k))).toEqual([]);

      const listed = await runSuite(['list', '--server'], 30_000, suites);
      expect(listed.code, listed.output).toBe(0);
      const scenarios = [...listed.output.matchAll(/^\s+- (\S+)/gm)].map((m) => m[1]!);
      expect(scenarios.length).toBeGreaterThanOrEqual(30);

      const dir = cli.tempDir();
      const { url } = await serveConformance(cli, dir, ['conformance']);
      const out = mkdtempSync(join(tmpdir(), 'mcp-sup-conformance-'));
      outDirs.push(out);
      // `all`: the active scenarios and the two the suite still calls pending (2020-12 schemas, SSE polling).
      const run = await runSuite(
        ['server', '--url', url, '--suite', 'all', '--expected-failures', BASELINE, '-o', out],
        90_000,
        suites,
      );
      const results = readResults(out, 'server-');

      expect(results.map((r) => r.scenario).sort(), run.output).toEqual([...scenarios].sort());
      expect(baselineMismatches(results, baseline.server), run.output).toEqual([]);
      // The suite's own verdict on the same baseline agrees.
      expect(run.code, run.output).toBe(0);
      // The fixture serve started at the first client's initialize is still up: the run ended no server.
      expect(alive(await pidOf(dir, 'conformance'))).toBe(true);
    }, 150_000);
  },
);
