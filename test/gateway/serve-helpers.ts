import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, type ClientOptions } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, beforeAll } from 'vitest';
import { BIN, cliProcesses, ensureBuilt, FIXTURE, ROOT, sleep } from '../cli/helpers.js';

export const EVERYTHING = join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const q = (s: string) => JSON.stringify(s);

/** Extra YAML lines for each server (indented 4), and extra fixture flags. */
export interface ConfigExtra {
  ev?: string[];
  fx?: string[];
  fxFlags?: string[];
  head?: string[];
}

/** A config of the official server-everything (`ev`) and the fixture (`fx`) logging every message it gets. */
export function writeConfig(dir: string, extra: ConfigExtra = {}): { config: string; log: string } {
  const log = join(dir, 'fx.log');
  const config = join(dir, 'fleet.yaml');
  writeFileSync(
    config,
    [
      ...(extra.head ?? []),
      'servers:',
      '  ev:',
      `    command: ${q(process.execPath)}`,
      `    args: [${q(EVERYTHING)}, "stdio"]`,
      '    timeouts: { startup: 20s, call: 5s, shutdown: 2s }',
      ...(extra.ev ?? []).map((l) => `    ${l}`),
      '  fx:',
      `    command: ${q(process.execPath)}`,
      `    args: [${[FIXTURE, `--log=${log}`, ...(extra.fxFlags ?? [])].map(q).join(', ')}]`,
      '    timeouts: { startup: 5s, call: 20s, shutdown: 1s }',
      ...(extra.fx ?? []).map((l) => `    ${l}`),
      '',
    ].join('\n'),
  );
  return { config, log };
}

/**
 * A test file's CLI processes and the SDK clients its tests open. Registers the build before the first test and,
 * after each test, closes every client and reaps every process, so a failed test leaves nothing running.
 */
export function serveClients(): { cli: ReturnType<typeof cliProcesses>; clients: Client[] } {
  const cli = cliProcesses();
  const clients: Client[] = [];
  beforeAll(ensureBuilt, 120_000);
  afterEach(async () => {
    // A client whose serve already died fails to close: that must not keep the processes from being reaped.
    await Promise.all(clients.splice(0).map((c) => c.close().catch(() => {})));
    await cli.reap();
  });
  return { cli, clients };
}

export async function connect(
  cli: ReturnType<typeof cliProcesses>,
  clients: Client[],
  config: string,
  options?: ClientOptions,
  /** Runs before the handshake: for notification handlers that must not miss an early notification. */
  before?: (client: Client) => void,
): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'serve', config, '--trust-all'],
    cwd: ROOT,
    env: { ...(process.env as Record<string, string>), MCP_SUPERVISOR_TRUST_STORE: `${config}.trust.json` },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'serve-test', version: '1.0.0' }, options);
  clients.push(client);
  before?.(client);
  await client.connect(transport);
  if (transport.pid) cli.trackPid(transport.pid);
  return client;
}

/** server-everything reached without the supervisor: what answers through `serve` are compared with. */
export async function directEverything(
  cli: ReturnType<typeof cliProcesses>,
  clients: Client[],
): Promise<Client> {
  const client = new Client({ name: 'direct', version: '1.0.0' });
  clients.push(client);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [EVERYTHING, 'stdio'],
    stderr: 'ignore',
  });
  await client.connect(transport);
  if (transport.pid) cli.trackPid(transport.pid);
  return client;
}

/** Every message the fixture received, in order. */
export function received(
  log: string,
): Array<{ id?: unknown; method?: string; params?: Record<string, unknown> }> {
  try {
    return readFileSync(log, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
  } catch {
    return [];
  }
}

export async function until<T>(
  get: () => T | undefined | Promise<T | undefined>,
  ms: number,
  what: string,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await get();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}
