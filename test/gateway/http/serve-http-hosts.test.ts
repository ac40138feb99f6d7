import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerConfig } from '../../../src/config/types.js';
import type { Supervisor } from '../../../src/supervisor/supervisor.js';
import type { SupervisorEvent } from '../../../src/supervisor/types.js';
import { cliProcesses, ensureBuilt, FIXTURE } from '../../cli/helpers.js';
import { makeHost, type NetHost, netnsUnavailable } from '../../fixtures/netns.js';
import { eventually, fixtureServer, fleetConfig, fleets, transitions } from '../../supervisor/fleet.js';

// Two machines, each a network namespace of its own running `serve --http` over a fixture; a front supervisor
// here supervises both as url: servers. One link is cut and restored while the other host is called throughout.
const why = netnsUnavailable();
if (why) console.warn(`serve --http across hosts: SKIPPED — ${why}`);

const TOKEN = 'across-hosts-token-0123456789';
const PORT = 8931;
const cli = cliProcesses();
const f = fleets();
const hosts: NetHost[] = [];
let sup: Supervisor;
let events: SupervisorEvent[];

function remote(id: string, host: NetHost): ServerConfig {
  const url = `http://${host.address}:${PORT}/mcp`;
  return fixtureServer(id, [], {
    command: '',
    args: [],
    remote: { url, headers: { Authorization: `Bearer ${TOKEN}` } },
    timeouts: { startupMs: 5000, callMs: 30_000, shutdownMs: 1000 },
    // Pings find a link that is gone: the kernel says nothing to a socket whose peer went silent.
    health: { intervalMs: 300, timeoutMs: 700, failureThreshold: 2 },
    restart: {
      policy: 'on-failure',
      backoff: { initialMs: 200, multiplier: 1, maxMs: 200, jitter: 0, resetAfterMs: 60_000 },
      limit: { maxRestarts: 1000, windowMs: 60_000 },
    },
  });
}

describe.skipIf(why !== undefined)('serve --http across hosts', () => {
  beforeAll(async () => {
    await ensureBuilt();
    const dir = cli.tempDir();
    // No pid files: a host's serve may contain its fixture in a pid namespace, whose pids mean other processes
    // here. Each serve reaps its own fixture when it stops.
    const config = join(dir, 'fleet.yaml');
    writeFileSync(
      config,
      [
        `serve: { auth: { tokens: [ { token: "${TOKEN}" } ] } }`,
        'servers:',
        `  fx: { command: ${JSON.stringify(process.execPath)}, args: [${JSON.stringify(FIXTURE)}] }`,
        '',
      ].join('\n'),
    );
    for (const n of [0, 1]) {
      const host = makeHost(n);
      hosts.push(host);
      const serve = cli.spawnCli(
        ['serve', config, '--http', `${host.address}:${PORT}`, '--trust-all'],
        {},
        host.exec,
      );
      await serve.waitFor(/^listening on http:\/\/\S+\/mcp$/m, 15_000);
    }
    ({ sup, events } = f.create(fleetConfig([remote('a', hosts[0]!), remote('b', hosts[1]!)])));
    await sup.start();
  }, 60_000);

  afterAll(async () => {
    await f.reap();
    await cli.reap();
    for (const host of hosts.splice(0)) host.remove();
  }, 30_000);

  it('a cut link fails its calls fast and coded, backs off, comes back when restored; the other host never notices', async () => {
    expect(sup.status().map((s) => [s.id, s.state])).toEqual([
      ['a', 'ready'],
      ['b', 'ready'],
    ]);
    expect(await sup.callTool('a.fx.echo', { text: 'to a' })).toBe('to a');

    // Host b is called back to back for the whole test: every one of its calls must succeed.
    let calling = true;
    const bOutcomes: string[] = [];
    const bLoop = (async () => {
      while (calling) {
        const out = await sup.callToolOutcome('b.fx.echo', { text: 'b' });
        bOutcomes.push(out.ok ? 'ok' : out.code);
      }
    })();

    // A timeout no test lives to see: the failed pings end the session, and the call with it, coded.
    const inFlight = sup.callToolOutcome('a.fx.slow', { ms: 60_000 }, { timeoutMs: 10 * 60_000 });
    await eventually(() => bOutcomes.length > 0, 5000, 'a first call to b');
    hosts[0]!.cut();
    const lost = await inFlight;
    expect(lost).toMatchObject({ ok: false, code: 'SERVER_DISCONNECTED', server: 'a' });
    await eventually(
      () => transitions(events, 'a').some((t) => t.endsWith('>backoff')),
      10_000,
      'a in backoff',
    );
    // A call while it is away waits for a restart within its own timeout, as for any restarting server.
    const meanwhile = await sup.callToolOutcome('a.fx.echo', { text: 'while cut' }, { timeoutMs: 1000 });
    expect(meanwhile).toMatchObject({ ok: false, server: 'a' });

    hosts[0]!.restore();
    await eventually(() => sup.status()[0]?.state === 'ready', 20_000, 'a ready again');
    expect(await sup.callTool('a.fx.echo', { text: 'back' })).toBe('back');

    calling = false;
    await bLoop;
    expect(bOutcomes.length).toBeGreaterThan(10);
    expect(bOutcomes.filter((o) => o !== 'ok')).toEqual([]);
    expect(transitions(events, 'b')).toEqual([
      'stopped>spawning',
      'spawning>approving',
      'approving>handshaking',
      'handshaking>ready',
    ]);
  }, 60_000);
});
