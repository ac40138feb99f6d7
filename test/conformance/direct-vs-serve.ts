import type { ScenarioResult } from './suite.js';

/**
 * What a server passes directly and fails through `serve --http`: each scenario that passed in `direct` and did
 * not in `served` (failed, or was not run), with the checks that failed it there.
 */
export function lostThroughServe(direct: ScenarioResult[], served: ScenarioResult[]): string[] {
  const byName = new Map(served.map((r) => [r.scenario, r]));
  const lost: string[] = [];
  for (const r of direct) {
    if (r.failed) continue;
    const there = byName.get(r.scenario);
    if (!there) lost.push(`${r.scenario} passes directly and was not run through serve`);
    else if (there.failed)
      lost.push(
        `${r.scenario} passes directly and fails through serve:\n    ${there.problems.join('\n    ')}`,
      );
  }
  return lost;
}

/** The scenarios that failed, by name, sorted. */
export function failedScenarios(results: ScenarioResult[]): string[] {
  return results
    .filter((r) => r.failed)
    .map((r) => r.scenario)
    .sort();
}
