// The HTTP servers under test, each a process of its own in front of the same fixture server, and the clients that
// drive them: the SDK v1 Client over its Streamable HTTP transport (2025 sessions) and, for serve, a 2026 client.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { BenchError } from './bench-error.js';
import type { Contender } from './contenders.js';
import { FIXTURE } from './http-fixture.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const CALL_TIMEOUT_MS = 60_000;
const READY_MS = 30_000;

/** One HTTP server process: where it listens and its pid (whose CPU the rows report). */
export interface HttpServerProcess {
  url: URL;
  pid: number;
  close(): Promise<void>;
}

/** Spawns a server that prints `listening on URL` on stderr, and waits for that line. */
async function spawnListening(args: string[], what: string, cwd = root): Promise<HttpServerProcess> {
  const child = spawn(process.execPath, args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
  let text = '';
  const url = await new Promise<URL>((resolve, reject) => {
    const timer = setTimeout(() => fail(`no "listening on" line after ${READY_MS} ms`), READY_MS);
    const fail = (why: string) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new BenchError('NOT_READY', `${what}: ${why}; stderr: ${text.slice(-500)}`));
    };
    const exited = (code: number | null, signal: string | null) =>
      fail(`exited (${code ?? signal}) before listening`);
    const onData = (chunk: string) => {
      if (text.length < 64 * 1024) text += chunk;
      const m = /^listening on (\S+)$/m.exec(text);
      if (!m) return;
      clearTimeout(timer);
      // from here on its stderr is drained unread, and its exit is stopChild's business
      child.off('exit', exited);
      child.stderr!.off('data', onData);
      child.stderr!.resume();
      resolve(new URL(m[1]!));
    };
    child.once('error', (err) => fail(err.message));
    child.once('exit', exited);
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', onData);
  });
  return { url, pid: child.pid!, close: () => stopChild(child) };
}

/** SIGTERM, then SIGKILL if it has not gone within 5 s. */
async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

/**
 * `mcp-supervisor serve CONFIG --http 127.0.0.1:0`, the real CLI (dist/ when `from` is dist, else the sources
 * through tsx; or another build's `main`) over one fixture server `fx` with health pings off, its trust store and
 * state in a temp dir. `nodeArgs` go to its node (`--cpu-prof`, say); `configHead` goes before `servers:`.
 */
export async function startServeHttp(
  from: 'dist' | 'src',
  opts: { nodeArgs?: string[]; serveArgs?: string[]; main?: string; configHead?: string; port?: number } = {},
): Promise<HttpServerProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-sup-http-bench-'));
  const config = join(dir, 'fleet.yaml');
  const q = (s: string) => JSON.stringify(s);
  writeFileSync(
    config,
    [
      ...(opts.configHead ? [opts.configHead] : []),
      'servers:',
      '  fx:',
      `    command: ${q(process.execPath)}`,
      `    args: [${q(FIXTURE)}]`,
      '    health: { interval: 0 }',
      '    timeouts: { startup: 20s, call: 60s, shutdown: 2s }',
      '',
    ].join('\n'),
  );
  mkdirSync(join(dir, 'state'));
  const main = opts.main
    ? [opts.main]
    : from === 'dist'
      ? [join(root, 'dist/cli/main.js')]
      : ['--import', 'tsx', join(root, 'src/cli/main.ts')];
  const args = [
    ...(opts.nodeArgs ?? []),
    ...main,
    'serve',
    config,
    '--http',
    `127.0.0.1:${opts.port ?? 0}`,
    '--trust-all',
    '--no-auth',
    '--store',
    join(dir, 'trust.json'),
    '--state-dir',
    join(dir, 'state'),
    ...(opts.serveArgs ?? []),
  ];
  try {
    const proc = await spawnListening(args, 'serve --http');
    return {
      ...proc,
      close: async () => {
        await proc.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

/** The SDK's own Streamable HTTP server proxying the fixture (http-sdk-proxy.ts). */
export function startSdkProxy(nodeArgs: string[] = []): Promise<HttpServerProcess> {
  return spawnListening(
    [...nodeArgs, '--import', 'tsx', join(root, 'bench/lib/http-sdk-proxy.ts')],
    'SDK proxy',
  );
}

/** The bare node:http floor over a plain pipe (http-floor.ts). */
export function startHttpFloor(): Promise<HttpServerProcess> {
  return spawnListening(['--import', 'tsx', join(root, 'bench/lib/http-floor.ts')], 'HTTP floor');
}

const firstText = (result: unknown) => {
  const first = (
    (result as { content?: unknown }).content as Array<{ type: string; text?: string }> | undefined
  )?.[0];
  return first?.type === 'text' && typeof first.text === 'string' ? first.text : '';
};

/**
 * The SDK v1 Client over Streamable HTTP, initialized (a 2025 session where the server keeps one); `prefix` is
 * what the server puts before the fixture's tool names. `pid()` is the HTTP server's, so the rows' server CPU is
 * that process's main thread.
 */
export async function sdkHttpClient(server: HttpServerProcess, prefix: string): Promise<Contender> {
  const client = new Client({ name: 'http-bench', version: '0.0.0' });
  const limits = { timeout: CALL_TIMEOUT_MS, maxTotalTimeout: CALL_TIMEOUT_MS };
  await client.connect(new StreamableHTTPClientTransport(server.url), limits);
  return {
    pid: () => server.pid,
    call: async (tool, args) =>
      firstText(await client.callTool({ name: `${prefix}${tool}`, arguments: args }, undefined, limits)),
    close: () => client.close(),
  };
}

/** A 2026 client (SDK v2, pinned to 2026-07-28): every call a stateless POST, no session. */
export async function modernHttpClient(server: HttpServerProcess, prefix: string): Promise<Contender> {
  const client = new ClientV2(
    { name: 'http-bench', version: '0.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(new HttpV2(server.url));
  return {
    pid: () => server.pid,
    call: async (tool, args) =>
      firstText(
        await client.callTool({ name: `${prefix}${tool}`, arguments: args }, { timeout: CALL_TIMEOUT_MS }),
      ),
    close: () => client.close(),
  };
}
