import { readFileSync, writeFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  ResourceListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  allGone,
  BIN,
  type CliProcess,
  cliProcesses,
  ensureBuilt,
  type FixtureServer,
  pidOf,
  ROOT,
  sleep,
  writeFixtureConfig,
} from './helpers.js';

// One `run` for the SIGHUP and `reload` cases, one `run --watch`, one `serve`: each reloaded from its config file.
const cli = cliProcesses();
const clients: Client[] = [];
beforeAll(ensureBuilt, 120_000);
afterAll(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => {})));
  await cli.reap();
});

const cmdline = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');

/** Waits for a pid file to name another pid than `old` (the server was started again). */
async function newPid(dir: string, id: string, old: number | undefined, ms = 10_000): Promise<number> {
  const end = Date.now() + ms;
  for (;;) {
    const pid = await pidOf(dir, id, ms).catch(() => undefined);
    if (pid !== undefined && pid !== old) return pid;
    if (Date.now() > end) throw new Error(`${id} was not started again`);
    await sleep(50);
  }
}

/** Waits until the process's stderr has `pattern` `n` times. */
async function seen(p: CliProcess, pattern: RegExp, n: number, ms = 20_000): Promise<void> {
  const g = new RegExp(pattern.source, 'g');
  const end = Date.now() + ms;
  while ((p.stderr().match(g) ?? []).length < n) {
    if (Date.now() > end || p.child.exitCode !== null)
      throw new Error(`${pattern} not seen ${n} times; stderr:\n${p.stderr()}`);
    await sleep(50);
  }
}

const three: FixtureServer[] = [{ id: 'keep' }, { id: 'chg' }, { id: 'gone' }];
/** The reloaded fleet: one added first, one changed (new args), one removed. */
const reloaded: FixtureServer[] = [{ id: 'add' }, { id: 'keep' }, { id: 'chg', flags: ['--tools', '2'] }];

describe('reloading a running fleet from its config file', () => {
  let dir: string;
  let config: string;
  let run: CliProcess;
  beforeAll(async () => {
    dir = cli.tempDir();
    config = writeFixtureConfig(dir, three);
    run = cli.spawnCli(['run', config, '--trust-all']);
    await run.waitFor(/event=log msg=started/, 20_000);
  }, 30_000);

  it('SIGHUP: unchanged keeps its pid, changed runs its new args under a new pid, removed is gone, added runs', async () => {
    const [keep, chg, gone] = [await pidOf(dir, 'keep'), await pidOf(dir, 'chg'), await pidOf(dir, 'gone')];
    writeFixtureConfig(dir, reloaded);
    run.child.kill('SIGHUP');
    await seen(run, /event=reload /, 1);
    expect(run.stderr()).toMatch(/event=reload restarted=chg started=add stopped=gone unchanged=keep/);
    const chgNow = await newPid(dir, 'chg', chg);
    expect(cmdline(chgNow)).toContain('--tools');
    expect(await pidOf(dir, 'keep')).toBe(keep);
    expect(await allGone([gone, chg])).toBe(true);
    expect(await pidOf(dir, 'add')).toBeGreaterThan(0);
    // SIGHUP is not a stop: the fleet is still running.
    expect(run.child.exitCode).toBeNull();
    expect(run.stderr()).not.toMatch(/msg=stopping/);
  });

  it('`mcp-supervisor reload` answers what it did; a config with problems changes nothing and says file:line', async () => {
    const keep = await pidOf(dir, 'keep');
    writeFixtureConfig(dir, [{ id: 'keep' }, { id: 'chg', flags: ['--tools', '2'] }]);
    const ok = await cli.runCli(['reload', '--config', config]);
    expect([ok.code, ok.stdout, ok.stderr]).toEqual([0, 'add: stopped\n2 unchanged\n', '']);

    const good = readFileSync(config, 'utf8');
    writeFileSync(config, good.replace('restart: { policy: on-failure', 'restart: { policy: sometimes'));
    const bad = await cli.runCli(['reload', '--config', config]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(new RegExp(`^${config}:5:\\d+ servers\\.keep\\.restart\\.policy: `, 'm'));
    expect(bad.stderr).toMatch(/nothing changed/);
    const json = await cli.runCli(['reload', '--config', config, '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({
      ok: false,
      code: 'INVALID_CONFIG',
      problems: [{ source: config, line: 5, path: 'servers.keep.restart.policy' }],
    });
    // The fleet logged the problems as events, and kept running as it was.
    expect(run.stderr()).toMatch(/msg=reloading .*trigger=control/);
    expect(run.stderr()).toMatch(/event=reload_refused .*code=INVALID_CONFIG problems=1/);
    expect(run.stderr()).toMatch(/event=reload_problem .*line=5 .*field=servers\.keep\.restart\.policy/);
    expect(await pidOf(dir, 'keep')).toBe(keep);
    const status = JSON.parse((await cli.runCli(['status', '--config', config, '--json'])).stdout) as {
      servers: Array<{ id: string; state: string }>;
    };
    expect(status.servers.map((s) => [s.id, s.state])).toEqual([
      ['keep', 'ready'],
      ['chg', 'ready'],
    ]);
    writeFileSync(config, good);
  });
});

describe('run --watch', () => {
  it('an edit of the config file is reloaded without a signal', async () => {
    const dir = cli.tempDir();
    const config = writeFixtureConfig(dir, [{ id: 'w1' }]);
    const run = cli.spawnCli(['run', config, '--trust-all', '--watch']);
    await run.waitFor(/msg="watching the config for changes"/, 20_000);
    const w1 = await pidOf(dir, 'w1');
    writeFixtureConfig(dir, [{ id: 'w1' }, { id: 'w2' }]);
    await seen(run, /event=reload /, 1);
    expect(run.stderr()).toMatch(/event=reload started=w2 unchanged=w1/);
    expect(await pidOf(dir, 'w2')).toBeGreaterThan(0);
    expect(await pidOf(dir, 'w1')).toBe(w1);
  }, 30_000);
});

describe('serve: a reload under load', () => {
  it('calls back to back to an unchanged server lose nothing; clients hear tools/ and resources/list_changed', async () => {
    const dir = cli.tempDir();
    // The removed server offers a resource: its leaving changes the resource list too.
    const config = writeFixtureConfig(dir, [
      { id: 'keep' },
      { id: 'chg' },
      { id: 'gone', flags: ['--resources', '1'] },
    ]);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'serve', config, '--trust-all'],
      cwd: ROOT,
      env: { ...(process.env as Record<string, string>), MCP_SUPERVISOR_TRUST_STORE: `${config}.trust.json` },
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    const client = new Client({ name: 'reload-test', version: '1.0.0' });
    clients.push(client);
    let changed = 0;
    let resourcesChanged = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      changed++;
    });
    client.setNotificationHandler(ResourceListChangedNotificationSchema, async () => {
      resourcesChanged++;
    });
    await client.connect(transport);
    if (transport.pid) cli.trackPid(transport.pid);
    await client.listTools();
    expect((await client.listResources()).resources).toHaveLength(1);
    const keep = await pidOf(dir, 'keep');
    const before = changed;
    const resourcesBefore = resourcesChanged;

    let done = false;
    const texts: string[] = [];
    const failures: unknown[] = [];
    const load = (async () => {
      for (let i = 0; !done; i++) {
        const r = await client.callTool({ name: 'keep.echo', arguments: { text: `n${i}` } });
        const text = (r.content as Array<{ text?: string }>)[0]?.text;
        if (r.isError || text !== `n${i}`) failures.push(r);
        texts.push(text ?? '');
      }
    })();
    while (texts.length < 5) await sleep(10);
    writeFixtureConfig(dir, reloaded);
    process.kill(transport.pid!, 'SIGHUP');
    const end = Date.now() + 20_000;
    while (!/event=reload /.test(stderr) && Date.now() < end) await sleep(50);
    const during = texts.length;
    while (texts.length < during + 5) await sleep(10);
    done = true;
    await load;
    expect(stderr).toMatch(/event=reload restarted=chg started=add stopped=gone unchanged=keep/);
    expect(failures).toEqual([]);
    expect(texts.length).toBeGreaterThan(10);
    expect(await pidOf(dir, 'keep')).toBe(keep);
    const end2 = Date.now() + 5000;
    while (changed === before && Date.now() < end2) await sleep(25);
    expect(changed).toBeGreaterThan(before);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['add.echo', 'keep.echo', 'chg.tool_1', 'chg.tool_2']));
    expect(names.some((n) => n.startsWith('gone.'))).toBe(false);
    while (resourcesChanged === resourcesBefore && Date.now() < end2 + 5000) await sleep(25);
    expect(resourcesChanged).toBeGreaterThan(resourcesBefore);
    expect((await client.listResources()).resources).toEqual([]);
  }, 40_000);
});
