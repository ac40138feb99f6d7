import { chmodSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type CliResult, cliProcesses, ensureBuilt, sleep, writeFixtureConfig } from './helpers.js';

const cli = cliProcesses();
beforeAll(ensureBuilt, 120_000);
afterEach(cli.reap);

/** A world-writable directory, as `chmod 777` leaves it. */
function openDir(parent: string, name = 'state'): string {
  const dir = join(parent, name);
  mkdirSync(dir, { recursive: true });
  chmodSync(dir, 0o777);
  return dir;
}

/** Runs the CLI; a refusal ends it at once, so one still running after 15 s ran in the unsafe directory. */
async function ended(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  const p = cli.spawnCli(args, env);
  p.child.stdin!.end();
  const r = await Promise.race([p.exited, sleep(15_000).then(() => undefined)]);
  if (!r) throw new Error(`still running after 15 s; stderr:\n${p.stderr()}`);
  return r;
}

const refusal = (dir: string) =>
  new RegExp(
    `^mcp-supervisor: state directory ${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is unsafe: mode 0777, owner uid \\d+: any user can write in it \\(o\\+w\\); [^\\n]*\\n$`,
  );

describe('a state directory any user can write', () => {
  it('is refused by run, serve and call in one line, exit 1, before anything is written there', async () => {
    const dir = cli.tempDir();
    const config = writeFixtureConfig(dir, [{ id: 'fx' }]);
    const state = openDir(dir);
    for (const args of [
      ['run', config, '--trust-all', '--state-dir', state],
      ['serve', config, '--trust-all', '--state-dir', state],
      ['call', config, 'fx.echo', '{}', '--trust-all', '--state-dir', state],
    ]) {
      const r = await ended(args);
      expect(r.stderr, args[0]).toMatch(refusal(state));
      expect(r.code, args[0]).toBe(1);
      expect(r.stdout).toBe('');
    }
    expect(readdirSync(state)).toEqual([]);
    expect(readdirSync(dir).filter((f) => f.endsWith('.pid.json'))).toEqual([]);
  });

  it('is refused by the control commands in one line, exit 1, before any socket there is read', async () => {
    const dir = cli.tempDir();
    const config = writeFixtureConfig(dir, [{ id: 'fx' }]);
    const state = openDir(dir);
    for (const args of [
      ['status', '--state-dir', state],
      ['status', '--state-dir', state, '--config', config, '--json'],
      ['logs', 'fx', '--state-dir', state],
      ['restart', 'fx', '--state-dir', state],
      ['stop', 'fx', '--state-dir', state],
      ['start', 'fx', '--state-dir', state],
      ['reload', '--state-dir', state],
    ]) {
      const r = await ended(args);
      expect(r.stderr, args.join(' ')).toMatch(refusal(state));
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stdout, args.join(' ')).toBe('');
    }
  });

  it('is refused at the default place too, and as one JSON record with its code', async () => {
    const dir = cli.tempDir();
    const config = writeFixtureConfig(dir, [{ id: 'fx' }]);
    const home = join(dir, 'xdg-state');
    const state = openDir(home, 'mcp-supervisor');
    const r = await ended(['run', config, '--trust-all', '--log-format', 'json'], { XDG_STATE_HOME: home });
    expect(r.code).toBe(1);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: 'error', event: 'error', code: 'state_dir_unsafe' });
    expect(lines[0]).toContain(state);
  });
});
