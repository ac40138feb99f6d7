import { randomBytes } from 'node:crypto';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type CliProcess, cliProcesses, ensureBuilt, writeFixtureConfig } from '../cli/helpers.js';
import { MODERN } from '../gateway/http/helpers.js';
import { until } from '../gateway/serve-helpers.js';
import { describeHaproxy, freePort, type Haproxy, startHaproxy } from './haproxy.js';

// Three `serve --http` replicas behind HAProxy on the config docs/scale-out.md shows: round robin, no affinity,
// health checks on /readyz, retries only where no connection could be made. Clients of both eras call without
// pause while each replica in turn gets SIGTERM, exits and comes back; not one call may fail.

/** One request a client sent through the balancer, and the replica that answered it. */
interface Seen {
  client: 'v1' | 'v2';
  method: string;
  retry: boolean;
  replica: string | null;
}

describeHaproxy('serve --http replicas behind HAProxy', (binary) => {
  const cli = cliProcesses();
  const seen: Seen[] = [];
  const failures: string[] = [];
  const counts = { v1: 0, v2: 0, rounds: 0 };
  const replicas: CliProcess[] = [];
  let ports: number[] = [];
  let config = '';
  let lb: Haproxy | undefined;
  let lbUrl: URL;
  let running = true;
  const loops: Array<Promise<void>> = [];
  let v1: Client;
  let v2: ClientV2;

  /** A fetch that notes which replica answered (HAProxy's X-Replica) and what was asked. */
  const recording =
    (client: Seen['client']) =>
    async (url: string | URL, init?: RequestInit): Promise<Response> => {
      const res = await fetch(url, init);
      let method = init?.method ?? 'GET';
      let retry = false;
      if (typeof init?.body === 'string') {
        const body = JSON.parse(init.body) as { method?: string; params?: { requestState?: unknown } };
        method = body.method ?? method;
        retry = body.params?.requestState !== undefined;
      }
      seen.push({ client, method, retry, replica: res.headers.get('x-replica') });
      return res;
    };

  const startReplica = async (port: number): Promise<CliProcess> => {
    const proc = cli.spawnCli(['serve', config, '--http', `127.0.0.1:${port}`, '--trust-all', '--no-auth']);
    await proc.waitFor(/^listening on http:\/\/127\.0\.0\.1:\d+\/mcp$/m, 20_000);
    return proc;
  };
  const allUp = (ms: number) =>
    until(
      async () => {
        const states = await lb!.states();
        return ['r1', 'r2', 'r3'].every((r) => states[r] === 'UP') ? states : undefined;
      },
      ms,
      'every replica UP at the balancer',
    );

  /** Calls until told to stop; every failure is kept, with what it was. */
  const loop = (name: string, call: (n: number) => Promise<void>) =>
    (async () => {
      for (let n = 0; running; n++) {
        try {
          await call(n);
        } catch (err) {
          failures.push(`${name} #${n}: ${err instanceof Error ? err.message : String(err)}`);
        }
      }
    })();

  beforeAll(async () => {
    await ensureBuilt();
    const dir = cli.tempDir();
    ports = await Promise.all([freePort(), freePort(), freePort()]);
    // The balancer binds first, before the replicas' seconds of start: a port picked and let go can be taken by
    // another test meanwhile, so a bind it loses is tried again on a fresh port (the config names the port).
    for (let attempt = 1; !lb; attempt++) {
      const lbPort = await freePort();
      lbUrl = new URL(`http://127.0.0.1:${lbPort}/mcp`);
      config = writeFixtureConfig(
        dir,
        [{ id: 'fx', flags: ['--input-required', '1'], extra: '    allow: [elicitation]' }],
        [
          'serve:',
          `  sessionKey: "${randomBytes(32).toString('hex')}"`,
          `  allowedHosts: ["127.0.0.1:${lbPort}"]`,
          '',
        ].join('\n'),
      );
      lb = await startHaproxy(binary, dir, {
        MCP_LB_BIND: `127.0.0.1:${lbPort}`,
        MCP_LB_HOST: `127.0.0.1:${lbPort}`,
        MCP_REPLICA_1: `127.0.0.1:${ports[0]}`,
        MCP_REPLICA_2: `127.0.0.1:${ports[1]}`,
        MCP_REPLICA_3: `127.0.0.1:${ports[2]}`,
      }).catch((err: Error) => {
        if (attempt < 5 && /Address already in use/.test(err.message)) return undefined;
        throw err;
      });
    }
    for (const port of ports) replicas.push(await startReplica(port));
    await allUp(30_000);
    v1 = new Client({ name: 'lb-v1', version: '1.0.0' });
    await v1.connect(new StreamableHTTPClientTransport(lbUrl, { fetch: recording('v1') }));
    v2 = new ClientV2(
      { name: 'lb-v2', version: '1.0.0' },
      { capabilities: { elicitation: {} }, versionNegotiation: { mode: { pin: MODERN } } },
    );
    v2.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { name: 'ada' } }));
    await v2.connect(new HttpV2(lbUrl, { fetch: recording('v2') }));
  }, 120_000);

  afterAll(async () => {
    running = false;
    await Promise.allSettled(loops);
    await v1?.close().catch(() => {});
    await v2?.close().catch(() => {});
    await lb?.stop();
    await cli.reap();
  });

  const text = (r: object) => ((r as { content?: Array<{ text?: string }> }).content ?? [])[0]?.text;

  it('loses no call while each replica in turn drains, exits 0 and comes back; sessions and rounds carry on', async () => {
    const session = (v1 as unknown as { _transport: StreamableHTTPClientTransport })._transport.sessionId;
    expect(session).toMatch(/^s1\./);
    loops.push(
      loop('v1 echo', async (n) => {
        const out = await v1.callTool({ name: 'fx.echo', arguments: { text: `v1 ${n}` } });
        if (text(out) !== `v1 ${n}`) throw new Error(`answered ${JSON.stringify(out)}`);
        counts.v1 += 1;
      }),
      loop('v2 echo', async (n) => {
        const out = await v2.callTool({ name: 'fx.echo', arguments: { text: `v2 ${n}` } });
        if (text(out) !== `v2 ${n}`) throw new Error(`answered ${JSON.stringify(out)}`);
        counts.v2 += 1;
      }),
      loop('v2 round', async (n) => {
        const out = await v2.callTool({ name: 'fx.ask_first', arguments: { text: `ship ${n}` } });
        if (!text(out)?.startsWith(`ship ${n} confirmed by ada after 1 rounds`))
          throw new Error(`answered ${JSON.stringify(out)}`);
        counts.rounds += 1;
      }),
    );
    const total = () => counts.v1 + counts.v2 + counts.rounds;
    for (const [i, port] of ports.entries()) {
      const name = `r${i + 1}`;
      const before = total();
      replicas[i]!.child.kill('SIGTERM');
      const exit = await replicas[i]!.exited;
      expect([name, exit.code, exit.signal]).toEqual([name, 0, null]);
      expect(exit.stderr).toMatch(/draining: \/readyz answers 503/);
      replicas[i] = await startReplica(port);
      await allUp(30_000);
      // The calls went on the whole time: this replica's drain and return happened under load.
      expect([name, total() > before + 10]).toEqual([name, true]);
    }
    running = false;
    await Promise.all(loops);
    expect(failures).toEqual([]);
    expect(Math.min(counts.v1, counts.v2, counts.rounds)).toBeGreaterThan(10);
    // Every replica answered both clients, and the session begun before the restarts is the one still used.
    for (const client of ['v1', 'v2'] as const)
      expect(new Set(seen.filter((s) => s.client === client).map((s) => s.replica))).toEqual(
        new Set(['r1', 'r2', 'r3']),
      );
    const now = (v1 as unknown as { _transport: StreamableHTTPClientTransport })._transport.sessionId;
    expect(now).toBe(session);
    expect(text(await v1.callTool({ name: 'fx.echo', arguments: { text: 'after' } }))).toBe('after');
  }, 240_000);

  it('completes an input_required round whose retry another replica answers', async () => {
    const from = seen.length;
    const out = await v2.callTool({ name: 'fx.ask_first', arguments: { text: 'cross' } });
    expect(text(out)).toMatch(/^cross confirmed by ada after 1 rounds/);
    const posts = seen.slice(from).filter((s) => s.method === 'tools/call');
    expect(posts.map((p) => p.retry)).toEqual([false, true]);
    // Round robin with no other traffic: the retry went to the next replica.
    expect(posts[0]!.replica).not.toBe(posts[1]!.replica);
  }, 30_000);
});
