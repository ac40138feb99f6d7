import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../cli/helpers.js';
import { baselineMismatches, checkedBaseline, NODE22_UNAVAILABLE, readResults, suiteRuns } from './suite.js';

/**
 * The client scenarios of 0.1.16 that a host with static headers can take part in, less `sse-retry`: it passes
 * (docs/conformance.md) but judges a reconnect across two processes against a 450–700 ms window, too tight for a
 * loaded 2-core run of the whole suite. The rest are OAuth flows (`auth/*`), which a `url:` server does not do.
 */
const SCENARIOS = ['initialize', 'tools_call', 'elicitation-sep1034-client-defaults'];

// The suite splits the command at spaces and runs it through a shell, which puts the quoted parts back together.
const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;
const COMMAND = `${quote(process.execPath)} ${quote(join(ROOT, 'test', 'conformance', 'client-command.mjs'))}`;

const conformance = suiteRuns('the conformance suite against a url server');

describe.skipIf(NODE22_UNAVAILABLE !== undefined)(
  'the official conformance suite against a url server',
  () => {
    it('passes the client scenarios it runs except the baseline, whose every entry still fails', async () => {
      const baseline = checkedBaseline('client');

      const out = conformance.outDir();
      // Each scenario starts its own test server on its own port: they run side by side.
      const runs = await Promise.all(
        SCENARIOS.map((scenario) =>
          conformance.run(
            ['client', '--command', COMMAND, '--scenario', scenario, '--timeout', '20000', '-o', out],
            40_000,
          ),
        ),
      );
      const output = runs.map((r) => r.output).join('\n');
      // The checks are what the scenario's server saw; the suite's exit code adds the client's own end (an
      // error exit, a timeout), as its verdict without a baseline does. One scenario a run: each code is its own.
      const results = readResults(out).map((r) => {
        const code = runs[SCENARIOS.indexOf(r.scenario)]?.code;
        if (code === 0) return r;
        return {
          ...r,
          failed: true,
          problems: [...r.problems, `the suite exited ${code}: the client failed`],
        };
      });

      expect(results.map((r) => r.scenario).sort(), output).toEqual([...SCENARIOS].sort());
      expect(baselineMismatches(results, baseline.client), output).toEqual([]);
    }, 60_000);
  },
);
