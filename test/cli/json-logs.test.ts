import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliProcess, cliProcesses, ensureBuilt, writeFixtureConfig } from './helpers.js';

// One fleet for the file, logging JSON; the control commands are run against it with --log-format json.
const cli = cliProcesses();
let dir: string;
let state: string;
let config: string;
let fleet: CliProcess;

beforeAll(async () => {
  await ensureBuilt();
  dir = cli.tempDir();
  state = join(dir, 'state');
  config = writeFixtureConfig(dir, [{ id: 'fx', flags: ['--stderr-spam', '2'] }]);
  fleet = cli.spawnCli(['run', config, '--trust-all', '--state-dir', state, '--log-format', 'json']);
  await fleet.waitFor(/"msg":"started"/);
}, 120_000);
afterAll(cli.reap);

type Record = { [key: string]: unknown };
const records = (text: string): Record[] =>
  text
    .trimEnd()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record);
const ctl = (...args: string[]) => cli.runCli([...args, '--state-dir', state, '--log-format', 'json']);

describe('--log-format json', () => {
  it('writes a list field as a JSON array, not a comma-joined string', () => {
    const tools = records(fleet.stderr()).find((r) => r['event'] === 'tools' && r['server'] === 'fx');
    expect(Array.isArray(tools?.['added'])).toBe(true);
    expect(tools?.['added']).toEqual(expect.arrayContaining(['fx.echo', 'fx.add', 'fx.crash']));
  });

  it('makes the control commands write JSON records: restart, logs, reload (its lists as arrays), a refusal', async () => {
    const restart = await ctl('restart', 'fx');
    expect(restart.code, restart.stderr).toBe(0);
    expect(records(restart.stderr)).toEqual([
      expect.objectContaining({ level: 'info', event: 'restart', server: 'fx', msg: 'restarting' }),
    ]);

    const logs = await ctl('logs', 'fx');
    expect(logs.code, logs.stderr).toBe(0);
    const lines = records(logs.stdout);
    expect(lines.length).toBeGreaterThanOrEqual(2);
    expect(lines[0]).toMatchObject({ event: 'stderr', server: 'fx', level: 'info' });
    expect(typeof lines[0]!['ts']).toBe('string');

    writeFixtureConfig(dir, [{ id: 'fx', flags: ['--stderr-spam', '2'] }, { id: 'fz' }]);
    const reload = await ctl('reload');
    expect(reload.code, reload.stderr).toBe(0);
    expect(records(reload.stderr)).toEqual([
      expect.objectContaining({ event: 'reload', started: ['fz'], unchanged: ['fx'] }),
    ]);

    const refused = await ctl('restart', 'nope');
    expect(refused.code).toBe(1);
    expect(records(refused.stderr)).toEqual([
      expect.objectContaining({ level: 'error', event: 'error', code: 'control_refused' }),
    ]);
  }, 60_000);

  it('writes a config’s problems as located records', async () => {
    const bad = join(cli.tempDir(), 'bad.yaml');
    writeFileSync(bad, 'servers:\n  fx:\n    command: 42\n');
    const r = await cli.runCli(['call', bad, 'fx.echo', '--log-format', 'json']);
    expect(r.code).toBe(1);
    const [problem] = records(r.stderr);
    expect(problem).toMatchObject({ level: 'error', event: 'config_problem', file: bad, line: 3 });
    expect(typeof problem!['col']).toBe('number');
  });
});
