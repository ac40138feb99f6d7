// Calls per second through HAProxy (the config docs/scale-out.md shows) to one and to three `serve --http`
// replicas, beside the same replica called directly, in interleaved rounds (medians) with the bare HTTP client at
// 16 and 64 in flight. On two cores three replicas and the balancer share the machine with the client: the rows
// show what the balancer and sealed sessions cost, not how replicas scale. Needs haproxy (apt-get install
// haproxy); without it says why. Run: npm run bench -- --one load-balancer
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, type Haproxy, startHaproxy } from '../test/deploy/haproxy.js';
import { type CallRate, concurrentEcho } from './lib/call-rounds.js';
import type { Contender } from './lib/contenders.js';
import { bareHttpClient } from './lib/http-bare-client.js';
import { type HttpServerProcess, startServeHttp } from './lib/http-contenders.js';
import { interleave } from './lib/interleave.js';
import { fmt, median, ratio } from './lib/stats.js';
import { markdownTable } from './lib/table.js';

const ROUNDS = 5;
const CALLS = 600;
const IN_FLIGHT = [16, 64] as const;
const progress = (what: string) => process.stderr.write(`load-balancer: ${what}\n`);

function haproxyPath(): string | undefined {
  try {
    return execFileSync('sh', ['-c', 'command -v haproxy'], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

type Who = 'direct' | 'lb1' | 'lb3';

export async function runLoadBalancerBench(): Promise<void> {
  const binary = haproxyPath();
  if (!binary) {
    console.log(
      '(load-balancer: haproxy is not installed — apt-get install haproxy — so nothing is measured)',
    );
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'mcp-sup-lb-bench-'));
  const replicas: HttpServerProcess[] = [];
  const balancers: Haproxy[] = [];
  const clients: Contender[] = [];
  try {
    const [lb1Port, lb3Port] = [await freePort(), await freePort()];
    const head = [
      'serve:',
      `  sessionKey: "${randomBytes(32).toString('hex')}"`,
      `  allowedHosts: ["127.0.0.1:${lb1Port}", "127.0.0.1:${lb3Port}"]`,
    ].join('\n');
    for (let i = 0; i < 3; i++) {
      progress(`starting replica ${i + 1}`);
      replicas.push(await startServeHttp('dist', { configHead: head, port: await freePort() }));
    }
    const address = (r: HttpServerProcess) => `127.0.0.1:${r.url.port}`;
    const balance = async (port: number, behind: HttpServerProcess[], name: string) => {
      const own = join(dir, name);
      execFileSync('mkdir', ['-p', own]);
      const lb = await startHaproxy(binary, own, {
        MCP_LB_BIND: `127.0.0.1:${port}`,
        MCP_LB_HOST: `127.0.0.1:${port}`,
        // One replica: the three server lines name the same one.
        MCP_REPLICA_1: address(behind[0]!),
        MCP_REPLICA_2: address(behind[1 % behind.length]!),
        MCP_REPLICA_3: address(behind[2 % behind.length]!),
      });
      balancers.push(lb);
      const end = Date.now() + 30_000;
      while (!Object.values(await lb.states()).every((s) => s === 'UP')) {
        if (Date.now() > end) throw new Error(`${name}: not every replica came UP`);
        await new Promise((r) => setTimeout(r, 100));
      }
      return { url: new URL(`http://127.0.0.1:${port}/mcp`), pid: lb.child.pid!, close: lb.stop };
    };
    const lb1 = await balance(lb1Port, replicas.slice(0, 1), 'one');
    const lb3 = await balance(lb3Port, replicas, 'three');
    const contenders: Record<Who, Contender> = {
      direct: await bareHttpClient(replicas[0]!, 'fx.'),
      lb1: await bareHttpClient(lb1, 'fx.'),
      lb3: await bareHttpClient(lb3, 'fx.'),
    };
    clients.push(...Object.values(contenders));
    // Warm: every replica takes the sessions up, and the JITs settle.
    for (const c of Object.values(contenders)) await concurrentEcho(c, 300, 16);
    const rows: string[][] = [];
    for (const inFlight of IN_FLIGHT) {
      progress(`${inFlight} in flight, ${ROUNDS} rounds`);
      const runs = await interleave<Who, CallRate>(ROUNDS, {
        direct: () => concurrentEcho(contenders.direct, CALLS, inFlight),
        lb1: () => concurrentEcho(contenders.lb1, CALLS, inFlight),
        lb3: () => concurrentEcho(contenders.lb3, CALLS, inFlight),
      });
      const rate = (who: Who) => median(runs[who].map((r) => r.callsPerS));
      rows.push([
        String(inFlight),
        fmt(rate('direct'), 0),
        fmt(rate('lb1'), 0),
        fmt(rate('lb3'), 0),
        ratio(rate('lb1'), rate('direct')),
        ratio(rate('lb3'), rate('lb1')),
      ]);
    }
    console.log(
      markdownTable(
        [
          'in flight',
          'direct calls/s',
          'HAProxy → 1 replica',
          'HAProxy → 3 replicas',
          'LB cost (1 / direct)',
          '3 / 1',
        ],
        rows,
      ),
    );
    console.log(
      '\nThe bare HTTP client, one 2025 session with a sealed id (every replica takes it up), echo calls. On two cores the\n' +
        'client, HAProxy and the replicas share the same CPUs, so three replicas cannot be faster than one: the last\n' +
        'column shows what spreading costs here, not how replicas scale on machines of their own.',
    );
  } finally {
    for (const c of clients) await c.close().catch(() => {});
    for (const lb of balancers) await lb.stop().catch(() => {});
    for (const r of replicas) await r.close().catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  }
}
