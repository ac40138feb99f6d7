import { describe, expect, it } from 'vitest';
import { alive, cliProcesses, pidOf } from '../cli/helpers.js';
import { serveConformance } from './serve-fixtures.js';
import { BASELINE, baselineMismatches, checkedBaseline, NODE22_UNAVAILABLE, suiteRuns } from './suite.js';

const cli = cliProcesses();
const conformance = suiteRuns('the conformance suite against serve --http', cli);

describe.skipIf(NODE22_UNAVAILABLE !== undefined)(
  'the official conformance suite against serve --http',
  () => {
    it('passes every server scenario except the baseline, whose every entry still fails for a stated reason', async () => {
      const baseline = checkedBaseline('server');
      const listedAnywhere = [...baseline.server, ...baseline.client];
      expect(Object.keys(baseline.reasons).filter((k) => !listedAnywhere.includes(k))).toEqual([]);

      const listed = await conformance.run(['list', '--server'], 30_000);
      expect(listed.code, listed.output).toBe(0);
      const scenarios = [...listed.output.matchAll(/^\s+- (\S+)/gm)].map((m) => m[1]!);
      expect(scenarios.length).toBeGreaterThanOrEqual(30);

      const dir = cli.tempDir();
      const { url } = await serveConformance(cli, dir, ['conformance']);
      const out = conformance.outDir();
      // `all`: the active scenarios and the two the suite still calls pending (2020-12 schemas, SSE polling).
      const { run, results } = await conformance.server(
        url,
        ['--suite', 'all', '--expected-failures', BASELINE],
        out,
        90_000,
      );

      expect(results.map((r) => r.scenario).sort(), run.output).toEqual([...scenarios].sort());
      expect(baselineMismatches(results, baseline.server), run.output).toEqual([]);
      // The suite's own verdict on the same baseline agrees.
      expect(run.code, run.output).toBe(0);
      // The fixture serve started at the first client's initialize is still up: the run ended no server.
      expect(alive(await pidOf(dir, 'conformance'))).toBe(true);
    }, 150_000);
  },
);
