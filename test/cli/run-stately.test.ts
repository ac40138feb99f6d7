import { createServer } from 'node:net';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { allGone, cliProcesses, ensureBuilt, pidOf, writeFixtureConfig } from './helpers.js';

const cli = cliProcesses();
afterEach(() => cli.reap());
beforeAll(() => ensureBuilt(), 120_000);

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  const { port } = srv.address() as { port: number };
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

describe('run --stately', () => {
  it('starts with the Stately inspector hooked in, and its closed port never keeps the process alive after stop', async () => {
    const dir = cli.tempDir();
    const config = writeFixtureConfig(dir, [{ id: 'alpha' }]);
    const run = cli.spawnCli(['run', config, '--trust-all', '--stately', String(await closedPort())]);
    await run.waitFor(/stately inspector: ws:\/\/localhost:\d+/);
    await run.waitFor(/msg=started/);
    const pid = await pidOf(dir, 'alpha');
    run.child.kill('SIGINT');
    // The inspector retries every 5 s forever: a program it kept alive would never exit, and time the test out.
    const result = await run.exited;
    expect(result.code).toBe(0);
    expect(await allGone([pid])).toBe(true);
  }, 30_000);
});
