import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { StatusData } from '../../src/cli/control/status-command.js';
import { cliProcesses, ensureBuilt, writeFixtureConfig } from './helpers.js';
import { hasScript, screenOf, terminals } from './terminal.js';

// The inspector's address carries the token it needs: it is of use only whole, however narrow the terminal.
const cli = cliProcesses();
afterEach(() => cli.reap());
const onTerminal = terminals();
beforeAll(() => ensureBuilt(), 120_000);

const UI_URL = /http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+/;

describe('the inspector address', () => {
  it.skipIf(!hasScript)(
    'is printed whole on a line of its own on a terminal narrower than it',
    async () => {
      const dir = cli.tempDir();
      const config = writeFixtureConfig(dir, [{ id: 'alpha' }]);
      const term = onTerminal(['run', config, '--trust-all', '--ui', '0', '--state-dir', `${dir}/state`], 60);
      await term.waitFor(/alpha[^\n]*ready/);
      // What is left on the screen once the table has been redrawn over and over: the line is still there, whole,
      // longer than the terminal is wide (so wrapped, never cut).
      await term.waitFor(/uptime/i);
      const screen = screenOf(term.screen(), 60);
      const line = screen.find((l) => l.startsWith('inspector UI at'));
      expect(line, screen.join('\n')).toMatch(new RegExp(`^inspector UI at ${UI_URL.source}$`));
      expect(line!.length).toBeGreaterThan(60);
      // Above the title nothing but the address: no stray table header left behind by a redraw.
      const shown = screen.filter((l) => l.trim() !== '');
      expect(shown[0]).toBe(line);
      expect(shown[1]).toMatch(/^mcp-supervisor run /);
      term.type('\x03');
      expect(await term.exited).toBe(0);
    },
    30_000,
  );

  it('is in status and status --json, as the run printed it', async () => {
    const dir = cli.tempDir();
    const state = `${dir}/state`;
    const config = writeFixtureConfig(dir, [{ id: 'alpha' }]);
    const run = cli.spawnCli(['run', config, '--trust-all', '--ui', '0', '--state-dir', state]);
    await run.waitFor(/msg=started/);
    const url = UI_URL.exec(run.stderr())![0];
    const json = await cli.runCli(['status', '--json', '--state-dir', state]);
    expect(json.code).toBe(0);
    expect((JSON.parse(json.stdout) as StatusData).instance.urls).toEqual({ ui: url });
    const text = await cli.runCli(['status', '--state-dir', state]);
    expect(text.stdout.split('\n')[1]).toBe(`inspector ${url}`);
  }, 30_000);
});
