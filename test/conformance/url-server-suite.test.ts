import { afterEach, describe, expect, it } from 'vitest';
import { cliProcesses } from '../cli/helpers.js';
import { httpFixtures } from '../fixtures/http-fixture.js';
import { failedScenarios, lostThroughServe } from './direct-vs-serve.js';
import { CONFORMANCE_HTTP, serveUrlConformance } from './serve-fixtures.js';
import { assertNode22Installed, NODE22_UNAVAILABLE, suiteRuns } from './suite.js';

const cli = cliProcesses();
const conformance = suiteRuns('the conformance suite against a url: server through serve --http', cli);
const fixtures = httpFixtures(CONFORMANCE_HTTP);
afterEach(() => fixtures.killAll());

describe.skipIf(NODE22_UNAVAILABLE !== undefined)(
  'the official conformance suite against a url: server through serve --http',
  () => {
    it('passes through serve every server scenario the url: server passes directly, spoken to in either era', async () => {
      assertNode22Installed();
      // The fixture speaks both eras at one URL: serve finds it a 2026 server under `auto`, and keeps a 2025
      // session with it when pinned there; the suite's client is a 2025 one either way.
      // One fixture per run: its trigger tools add and remove a tool, which a run beside would see as a list
      // whose order moved between its probes.
      const [fx, fxModern, fxSessions] = await Promise.all([
        fixtures.start(),
        fixtures.start(),
        fixtures.start(),
      ]);
      const [modern, sessions] = await Promise.all([
        serveUrlConformance(cli, cli.tempDir(), fxModern.url),
        serveUrlConformance(cli, cli.tempDir(), fxSessions.url, '2025-11-25'),
      ]);
      // `all`: the active scenarios and the two the suite still calls pending. The three runs go side by side,
      // each with its own output directory; none has a baseline.
      const run = (url: string) => conformance.server(url, ['--suite', 'all'], conformance.outDir(), 60_000);
      const [direct, viaModern, viaSessions] = await Promise.all([run(fx.url), run(modern), run(sessions)]);

      expect(direct.results.length, direct.run.output).toBeGreaterThanOrEqual(30);
      // The fixture is a test server with no Host or Origin check and no event store of its own (serve has both):
      // no priming event or retry field for the polling scenario's stream.
      expect(failedScenarios(direct.results), direct.run.output).toEqual([
        'dns-rebinding-protection',
        'server-sse-polling',
      ]);
      expect(lostThroughServe(direct.results, viaModern.results), viaModern.run.output).toEqual([]);
      expect(lostThroughServe(direct.results, viaSessions.results), viaSessions.run.output).toEqual([]);
    }, 120_000);
  },
);
