import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { allGone, cliProcesses, ensureBuilt, pidOf, writeFixtureConfig } from './helpers.js';
import { hasScript, terminals } from './terminal.js';

const cli = cliProcesses();
// Registered after the reap: hooks run last-registered first, so each terminal is killed before its servers are reaped.
afterEach(() => cli.reap());
const onTerminal = terminals();
beforeAll(() => ensureBuilt(), 120_000);

describe.skipIf(!hasScript)('run on a terminal', () => {
  it('asks before trusting, draws the live table in place, and stops on Ctrl-C with nothing left', async () => {
    const dir = cli.tempDir();
    const config = writeFixtureConfig(dir, [{ id: 'alpha' }]);
    const term = onTerminal(['run', config]);
    await term.waitFor(/Trust and start it\? \[y\/N\]/);
    expect(term.screen()).toContain('alpha');
    term.type('y\r');
    // The table: a header with the columns, the server's row, redrawn in place with cursor moves.
    await term.waitFor(/alpha[^\n]*ready/);
    expect(term.screen()).toMatch(/id[^\n]*state[^\n]*pid[^\n]*restarts/i);
    expect(term.screen()).toMatch(/\x1b\[\d*[AJK]/);
    const pid = await pidOf(dir, 'alpha');
    term.type('\x03');
    expect(await term.exited).toBe(0);
    expect(await allGone([pid])).toBe(true);
  }, 30_000);

  it('refuses the server when the person answers no: it never spawns', async () => {
    const dir = cli.tempDir();
    const config = writeFixtureConfig(dir, [{ id: 'beta' }]);
    const term = onTerminal(['run', config]);
    await term.waitFor(/Trust and start it\? \[y\/N\]/);
    term.type('n\r');
    await term.waitFor(/beta[^\n]*untrusted/);
    expect(existsSync(join(dir, 'beta.pid.json'))).toBe(false);
    // Nothing runs now, and nothing will (the refusal is decided), yet `run` stays up until told to stop.
    expect(term.child.exitCode).toBe(null);
    term.type('\x03');
    const code = await term.exited;
    expect(code, term.screen().slice(-1500)).toBe(0);
    expect(term.screen()).toMatch(/stopped/);
  }, 30_000);

  it('takes a Ctrl-C typed right behind the answer, in the same read, as the stop', async () => {
    const dir = cli.tempDir();
    const config = writeFixtureConfig(dir, [{ id: 'gamma' }]);
    const term = onTerminal(['run', config]);
    await term.waitFor(/Trust and start it\? \[y\/N\]/);
    term.type('n\r\x03');
    const code = await term.exited;
    expect(code, term.screen().slice(-1500)).toBe(0);
    expect(term.screen()).toMatch(/stopped/);
    expect(existsSync(join(dir, 'gamma.pid.json'))).toBe(false);
  }, 30_000);

  it('counts a Ctrl-C at the prompt as the first stop: a second one kills every group at once, exit 130', async () => {
    const dir = cli.tempDir();
    const config = writeFixtureConfig(dir, [
      {
        id: 'stubborn',
        flags: ['--ignore-sigterm', '--ignore-stdin-eof'],
        // A shutdown wait no test lives to see: only the second Ctrl-C can end the program in time.
        timeouts: '{ startup: 5s, shutdown: 10m }',
      },
      { id: 'asked' },
    ]);
    const term = onTerminal(['run', config, '--trust', 'stubborn']);
    await term.waitFor(/Trust and start it\? \[y\/N\]/);
    const pid = await pidOf(dir, 'stubborn');
    term.type('\x03');
    await term.waitFor(/stopping/);
    // The server is being stopped, and it ignores both stdin EOF and SIGTERM: only the 10 min shutdown could end it.
    await term.waitFor(/stubborn[^\n]*stopping/);
    expect(term.child.exitCode).toBe(null);
    term.type('\x03');
    const code = await term.exited;
    expect(code, term.screen().slice(-1500)).toBe(130);
    expect(await allGone([pid])).toBe(true);
  }, 30_000);
});
