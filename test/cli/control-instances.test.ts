import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cliProcesses, ensureBuilt, sleep, writeFixtureConfig } from './helpers.js';

const cli = cliProcesses();
beforeAll(ensureBuilt, 120_000);
afterEach(cli.reap);

async function sockets(state: string, n: number): Promise<string[]> {
  const end = Date.now() + 10_000;
  for (;;) {
    let found: string[] = [];
    try {
      found = readdirSync(state).filter((f) => f.endsWith('.sock'));
    } catch {
      // Not created yet.
    }
    if (found.length >= n) return found;
    if (Date.now() > end) throw new Error(`${n} sockets never appeared in ${state}`);
    await sleep(50);
  }
}

describe('choosing among running instances', () => {
  it('says none runs, naming the state directory', async () => {
    const state = join(cli.tempDir(), 'state');
    const r = await cli.runCli(['status', '--state-dir', state]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `mcp-supervisor: no mcp-supervisor is running with state directory ${state}; start one with run or serve, or pass --state-dir for another\n`,
    );
  });

  it('with run, serve and serve --http in one state directory, asks for --config, and --config picks one', async () => {
    const a = cli.tempDir();
    const b = cli.tempDir();
    const c = cli.tempDir();
    const state = join(a, 'state');
    mkdirSync(state);
    const configA = writeFixtureConfig(a, [{ id: 'fa' }]);
    const configB = writeFixtureConfig(b, [{ id: 'fb' }]);
    const configC = writeFixtureConfig(c, [{ id: 'fc' }]);
    const run = cli.spawnCli(['run', configA, '--trust-all', '--state-dir', state]);
    // serve on stdio opens its socket at once; its fleet waits for a client, so it reports not started.
    const serve = cli.spawnCli(['serve', configB, '--trust-all', '--state-dir', state]);
    const http = cli.spawnCli([
      'serve',
      configC,
      '--http',
      '127.0.0.1:0',
      '--trust-all',
      '--state-dir',
      state,
    ]);
    await run.waitFor(/event=log msg=started/);
    const files = await sockets(state, 3);
    for (const f of files) expect(statSync(join(state, f)).mode & 0o777).toBe(0o600);

    const both = await cli.runCli(['status', '--state-dir', state]);
    expect(both.code).toBe(1);
    expect(both.stderr).toMatch(/^mcp-supervisor: 3 mcp-supervisor instances run with state directory /);
    expect(both.stderr).toContain(`pid ${run.child.pid} (run ${configA})`);
    expect(both.stderr).toContain(`pid ${serve.child.pid} (serve ${configB})`);
    expect(both.stderr).toContain(`pid ${http.child.pid} (serve --http ${configC})`);
    expect(both.stderr).toMatch(/pass --config \(or --state-dir\) to pick one\n$/);

    const picked = await cli.runCli(['status', '--json', '--state-dir', state, '--config', configB]);
    expect(picked.code, picked.stderr).toBe(0);
    const data = JSON.parse(picked.stdout) as {
      instance: { pid: number };
      servers: { id: string; state: string }[];
    };
    expect(data.instance.pid).toBe(serve.child.pid);
    expect(data.servers).toMatchObject([{ id: 'fb', state: 'stopped' }]);
    const early = await cli.runCli(['restart', 'fb', '--state-dir', state, '--config', configB]);
    expect([early.code, early.stderr]).toEqual([1, 'mcp-supervisor: the fleet has not started yet\n']);

    const other = await cli.runCli(['status', '--state-dir', state, '--config', join(b, 'other.yaml')]);
    expect(other.code).toBe(1);
    expect(other.stderr).toMatch(
      /^mcp-supervisor: no mcp-supervisor is running for .*other\.yaml with state directory .* \(running there: pid /,
    );

    // serve ends when its client closes stdin; its socket goes with it.
    serve.child.stdin!.end();
    expect((await serve.exited).code).toBe(0);
    http.child.kill('SIGTERM');
    expect((await http.exited).code).toBe(0);
    expect(readdirSync(state).filter((f) => f.endsWith('.sock'))).toHaveLength(1);
    const one = await cli.runCli(['status', '--json', '--state-dir', state]);
    expect((JSON.parse(one.stdout) as { instance: { pid: number } }).instance.pid).toBe(run.child.pid);
    // Three fleets and a dozen commands: room for a loaded machine.
  }, 40_000);
  it('removes its socket when the fleet ends in failure (the restart limit escalated)', async () => {
    const dir = cli.tempDir();
    const state = join(dir, 'state');
    const config = writeFixtureConfig(
      dir,
      [{ id: 'bad', flags: ['--exit-at-start', '1'] }],
      'supervisor:\n  limit: { maxRestarts: 1, window: 60s }\n',
    );
    const r = await cli.spawnCli(['run', config, '--trust-all', '--state-dir', state]).exited;
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/event=escalated/);
    const path = /event=log msg="control socket open" socket=(\S+)/.exec(r.stderr)?.[1];
    expect(path?.startsWith(join(state, 'ctl-'))).toBe(true);
    expect(existsSync(path!)).toBe(false);
  });
});
