import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { allGone, cliProcesses, ensureBuilt, pidOf, writeFixtureConfig } from './helpers.js';

const cli = cliProcesses();
beforeAll(ensureBuilt, 120_000);
afterEach(cli.reap);

describe('mcp-supervisor run (no TTY)', () => {
  it('logs each transition as a logfmt line on stderr and exits 0 on SIGINT with no process left', async () => {
    const dir = cli.tempDir();
    const config = writeFixtureConfig(dir, [{ id: 'fx' }, { id: 'fy' }]);
    const p = cli.spawnCli(['run', config, '--trust-all']);
    await p.waitFor(/event=log msg=started/);
    const pids = [await pidOf(dir, 'fx'), await pidOf(dir, 'fy')];
    const err = p.stderr();
    for (const id of ['fx', 'fy']) {
      expect(err).toMatch(
        new RegExp(`^ts=\\S+ level=info event=state server=${id} from=stopped to=spawning$`, 'm'),
      );
      expect(err).toMatch(
        new RegExp(`^ts=\\S+ level=info event=state server=${id} from=handshaking to=ready$`, 'm'),
      );
      expect(err).toMatch(
        new RegExp(`^ts=\\S+ level=info event=tools server=${id} added=${id}\\.echo,`, 'm'),
      );
    }
    expect(p.stdout()).toBe('');
    p.child.kill('SIGINT');
    const r = await p.exited;
    expect(r.code).toBe(0);
    expect(await allGone(pids)).toBe(true);
    // Stopped in reverse order.
    const stops = [...r.stderr.matchAll(/event=state server=(\w+) from=ready to=stopping/g)].map((m) => m[1]);
    expect(stops).toEqual(['fy', 'fx']);
    expect(r.stderr).toMatch(/event=log msg=stopped\n$/);
  });

  it('logs a crash as an exit line, then the backoff and the restart', async () => {
    const dir = cli.tempDir();
    const config = writeFixtureConfig(dir, [
      { id: 'fx', flags: ['--exit-after', '300', '--exit-code', '3'] },
    ]);
    const p = cli.spawnCli(['run', config, '--trust-all']);
    await p.waitFor(/event=state server=fx from=backoff to=spawning/);
    expect(p.stderr()).toMatch(/level=warn event=exit server=fx code=3 signal=null reason=exited/);
    expect(p.stderr()).toMatch(/event=state server=fx from=ready to=backoff/);
  });

  it('writes JSON lines with --log-format json', async () => {
    const dir = cli.tempDir();
    const config = writeFixtureConfig(dir, [{ id: 'fx' }]);
    const p = cli.spawnCli(['run', config, '--trust-all', '--log-format', 'json']);
    await p.waitFor(/"msg":"started"/);
    p.child.kill('SIGTERM');
    const r = await p.exited;
    expect(r.code).toBe(0);
    const records = r.stderr
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(records).toContainEqual(
      expect.objectContaining({
        level: 'info',
        event: 'state',
        server: 'fx',
        from: 'handshaking',
        to: 'ready',
      }),
    );
    expect(records.every((r) => typeof r['ts'] === 'string')).toBe(true);
  });

  it('a second SIGINT during a slow stop reaps at once and exits 130', async () => {
    const dir = cli.tempDir();
    const config = writeFixtureConfig(dir, [
      {
        id: 'fx',
        flags: ['--ignore-sigterm', '--ignore-stdin-eof', '--grandchild'],
        // A shutdown wait no test lives to see: only the second signal can end the program in time.
        timeouts: '{ startup: 5s, shutdown: 10m }',
      },
    ]);
    const p = cli.spawnCli(['run', config, '--trust-all']);
    await p.waitFor(/event=log msg=started/);
    const file = JSON.parse(readFileSync(join(dir, 'fx.pid.json'), 'utf8')) as {
      pid: number;
      grandchild: number;
    };
    p.child.kill('SIGINT');
    await p.waitFor(/event=log msg=stopping/);
    // The server is being stopped, and it ignores both stdin EOF and SIGTERM: only the 10 min shutdown could end it.
    await p.waitFor(/event=state server=fx from=ready to=stopping/);
    expect(p.child.exitCode).toBe(null);
    p.child.kill('SIGINT');
    const r = await p.exited;
    expect(r.code).toBe(130);
    expect(await allGone([file.pid, file.grandchild])).toBe(true);
  });

  it("stops everything and exits 1 when the supervisor's own restart limit is exceeded", async () => {
    const dir = cli.tempDir();
    const config = writeFixtureConfig(
      dir,
      [{ id: 'fx' }, { id: 'bad', flags: ['--exit-at-start', '1'] }],
      'supervisor:\n  limit: { maxRestarts: 2, window: 60s }\n',
    );
    const p = cli.spawnCli(['run', config, '--trust-all']);
    const r = await p.exited;
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/level=error event=escalated reason=/);
    expect(await allGone([await pidOf(dir, 'fx')])).toBe(true);
  });

  it('starts the inspector UI with --ui, prints its URL on stderr and closes it on stop', async () => {
    const dir = cli.tempDir();
    const config = writeFixtureConfig(dir, [{ id: 'fx' }]);
    const p = cli.spawnCli(['run', config, '--trust-all', '--ui']);
    await p.waitFor(/event=log msg=started/);
    const url = /msg="inspector UI at (http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+)"/.exec(p.stderr())?.[1];
    expect(url).toBeDefined();
    const page = await fetch(url!);
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/<html/i);
    p.child.kill('SIGINT');
    expect((await p.exited).code).toBe(0);
    await expect(fetch(url!)).rejects.toThrow();
  });
});

describe('mcp-supervisor run: the trust gate without a TTY', () => {
  it('refuses an untrusted server (it never spawns) and says which flag would allow it', async () => {
    const dir = cli.tempDir();
    const config = writeFixtureConfig(dir, [{ id: 'fx' }, { id: 'fy' }]);
    const p = cli.spawnCli(['run', config, '--trust', 'fy']);
    await p.waitFor(/event=log msg=started/);
    const err = p.stderr();
    expect(err).toMatch(
      /level=warn event=log msg="command line of server 'fx' not trusted; pass --trust fx or --trust-all" server=fx/,
    );
    expect(err).toMatch(/level=warn event=untrusted server=fx fingerprint=[0-9a-f]{64}/);
    expect(err).toMatch(/event=state server=fx from=\w+ to=untrusted/);
    expect(err).toMatch(/event=state server=fy from=handshaking to=ready/);
    expect(existsSync(join(dir, 'fx.pid.json'))).toBe(false);
    expect(existsSync(join(dir, 'fy.pid.json'))).toBe(true);
  });

  it('stays up with every server refused, until a signal stops it', async () => {
    const dir = cli.tempDir();
    const config = writeFixtureConfig(dir, [{ id: 'fx' }]);
    const p = cli.spawnCli(['run', config]);
    await p.waitFor(/event=log msg=started/);
    // Refused is decided: nothing will spawn, so nothing can fail or escalate, and only a signal ends the run.
    await p.waitFor(/event=state server=fx from=\w+ to=untrusted/);
    expect(p.child.exitCode).toBe(null);
    p.child.kill('SIGINT');
    expect((await p.exited).code).toBe(0);
    expect(p.stderr()).toMatch(/event=log msg=stopped/);
  });

  it('remembers what --trust-all approved: the next run without flags starts it', async () => {
    const dir = cli.tempDir();
    const store = join(dir, 'store.json');
    const config = writeFixtureConfig(dir, [{ id: 'fx' }]);
    const first = cli.spawnCli(['run', config, '--trust-all', '--store', store]);
    await first.waitFor(/event=log msg=started/);
    first.child.kill('SIGINT');
    expect((await first.exited).code).toBe(0);
    const second = cli.spawnCli(['run', config, '--store', store]);
    await second.waitFor(/event=log msg=started/);
    expect(second.stderr()).toMatch(/event=state server=fx from=handshaking to=ready/);
    expect(second.stderr()).not.toMatch(/untrusted/);
    // A store elsewhere (the env var) knows nothing of it.
    const third = cli.spawnCli(['run', config]);
    await third.waitFor(/event=log msg=started/);
    expect(third.stderr()).toMatch(/to=untrusted/);
  });
});
