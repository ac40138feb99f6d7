// The engine the global setup found (engine-setup.ts), in the form the probe and check tests ask for it: they are
// skipped (saying why) when none answers, except under CI=true, where they must run.
import { inject } from 'vitest';

export { TEST_IMAGE } from './engine-facts.js';

const found = inject('containerEngine');

/** Where the tests' engine answers; a default that answers nothing when there is none. */
export const ENGINE_ADDRESS = found.address ?? 'unix:///run/podman/podman.sock';

/** True when the tests' engine answers; otherwise prints why the engine tests are left out. */
export async function engineAnswers(): Promise<boolean> {
  if (found.address === undefined && process.env['CI'] !== 'true')
    console.warn(`no container engine for the tests (${found.why}): its tests are skipped`);
  return found.address !== undefined;
}

/** Skip the engine tests when no engine answers, unless CI=true, where a missing engine fails them. */
export const skipWithoutEngine = (answers: boolean) => !answers && process.env['CI'] !== 'true';
