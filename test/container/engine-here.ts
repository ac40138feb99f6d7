// Whether a container engine answers on this machine, for the tests that need a real one: they are skipped
// (saying why) when none does, except under CI=true, where they must run.
import { existsSync } from 'node:fs';
import { resolveEngineAddress } from '../../src/container/engine-address.js';
import { probeEngine } from '../../src/container/engine-probe.js';

/** The image the engine tests expect to find, built or loaded beforehand (it is never pulled). */
export const TEST_IMAGE = 'localhost/mcp-node:test';

/** Where the engine would be found with no address written: DOCKER_HOST, then the usual sockets. */
export const ENGINE_ADDRESS = ((r) => (r.ok ? r.address : 'unix:///run/podman/podman.sock'))(
  resolveEngineAddress(undefined, process.env, existsSync),
);

/** True when an engine answers at ENGINE_ADDRESS; otherwise prints why the engine tests are left out. */
export async function engineAnswers(): Promise<boolean> {
  const probe = await probeEngine(ENGINE_ADDRESS, TEST_IMAGE, 3000);
  const answers = probe.ok || probe.code === 'IMAGE_MISSING';
  if (!answers && process.env['CI'] !== 'true')
    console.warn(`no container engine answers at ${ENGINE_ADDRESS}: its tests are skipped`);
  return answers;
}

/** Skip the engine tests when no engine answers, unless CI=true, where a missing engine fails them. */
export const skipWithoutEngine = (answers: boolean) => !answers && process.env['CI'] !== 'true';
