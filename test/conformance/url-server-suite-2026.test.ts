import { afterEach, describe, expect, it } from 'vitest';
import { cliProcesses } from '../cli/helpers.js';
import { httpFixtures } from '../fixtures/http-fixture.js';
import { failedScenarios, lostThroughServe } from './direct-vs-serve.js';
import { CONFORMANCE_HTTP, serveUrlConformance } from './serve-fixtures.js';
import { assertNode22Installed, NODE22_UNAVAILABLE, SUITE_NEXT, suiteRuns } from './suite.js';

const REVISION = '2026-07-28';

const cli = cliProcesses();
const conformance = suiteRuns(
  `the ${REVISION} conformance run against a url: server through serve --http`,
  cli,
);
const fixtures = httpFixtures(CONFORMANCE_HTTP);
afterEach(() => fixtures.killAll());

describe.skipIf(NODE22_UNAVAILABLE !== undefined)(
  `the official conformance suite's ${REVISION} requirements against a url: server through serve --http`,
  () => {
    it('passes through serve every scenario the url: server passes directly', async () => {
      assertNode22Installed();
      // One fixture per run: its trigger tools add and remove a tool, which the run beside would see as a list
      // whose order moved between its probes (a WARNING of tools-list).
      const [fx, fxServed] = await Promise.all([fixtures.start(), fixtures.start()]);
      // Under `auto` serve finds the fixture a 2026 server: every request a stateless POST of its own.
      const served = await serveUrlConformance(cli, cli.tempDir(), fxServed.url);
      const run = (url: string) =>
        conformance.server(url, ['--requirements', REVISION], conformance.outDir(), 90_000, SUITE_NEXT);
      const [direct, viaServe] = await Promise.all([run(fx.url), run(served)]);

      expect(direct.results.length, direct.run.output).toBeGreaterThanOrEqual(40);
      // No Host or Origin check of its own (serve has one), and no tasks: the tasks extension is not scored.
      expect(
        failedScenarios(direct.results).filter((s) => !s.startsWith('tasks-')),
        direct.run.output,
      ).toEqual(['dns-rebinding-protection']);
      expect(lostThroughServe(direct.results, viaServe.results), viaServe.run.output).toEqual([]);
    }, 180_000);
  },
);
