import { describe, expect, it } from 'vitest';
import { CliError } from '../../src/cli/errors.js';
import { startStately } from '../../src/cli/stately.js';

describe('startStately', () => {
  it('explains in one line that --stately needs the optional package when it is not installed', async () => {
    const missing = async () => {
      throw Object.assign(new Error("Cannot find package '@statelyai/inspect'"), {
        code: 'ERR_MODULE_NOT_FOUND',
      });
    };
    const err = await startStately(8080, missing).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CliError);
    expect((err as Error).message).toMatch(
      /^--stately needs the optional package @statelyai\/inspect; install it with 'npm install @statelyai\/inspect'$/,
    );
  });

  it('refuses a package without createWebSocketInspector', async () => {
    await expect(startStately(8080, async () => ({}))).rejects.toBeInstanceOf(CliError);
  });
});
