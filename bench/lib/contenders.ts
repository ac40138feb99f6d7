// The clients under test, behind one shape: ours (the supervisor facade, or a bare connection) and the SDK's.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { ContainmentKind, ContainmentSetting } from '../../src/process/containment.js';
import type { Supervisor } from '../../src/supervisor/supervisor.js';
import { BenchError } from './bench-error.js';
import { benchSupervisor, CALL_TIMEOUT_MS, FIXTURE, fixtureServer, type TrustMode } from './fixture-fleet.js';
import { buildChildEnv, callToolText, FramePool, listAllTools, McpConnection } from './ours.js';

/** One client connected to one fixture server. `call` answers a tool's text (ours: flattened and capped). */
export interface Contender {
  call(tool: string, args: Record<string, unknown>): Promise<string>;
  /** The fixture process's pid, to read its CPU time. */
  pid(): number | undefined;
  close(): Promise<void>;
}

/** Our supervisor with one fixture server `fx`, started (ready). */
export async function startOurs(
  trust: TrustMode = 'store',
  args: string[] = [],
  containment?: ContainmentSetting,
): Promise<Contender & { sup: Supervisor }> {
  const sup = benchSupervisor([fixtureServer('fx', args)], trust, containment);
  try {
    await sup.start();
    const state = sup.status()[0]?.state;
    if (state !== 'ready') throw new BenchError('NOT_READY', `our fixture server is ${state}`);
  } catch (err) {
    await sup.stop();
    throw err;
  }
  return {
    sup,
    pid: () => sup.status()[0]?.pid,
    call: (tool, args) => sup.callTool(`fx.${tool}`, args, { timeoutMs: CALL_TIMEOUT_MS }),
    close: () => sup.stop(),
  };
}

/**
 * One McpConnection without the supervisor around it: spawn, handshake, tools/list (the fixture's own cold start).
 * `inline` leaves the frame pool out, so every line is parsed on the main thread.
 */
export async function startBareConnection(
  containment?: ContainmentKind,
  opts: { args?: string[]; inline?: boolean } = {},
): Promise<Contender> {
  const server = fixtureServer('fx', opts.args ?? []);
  const pool = opts.inline ? undefined : new FramePool();
  const conn = new McpConnection({
    serverId: server.id,
    command: server.command,
    args: server.args,
    cwd: server.cwd,
    env: buildChildEnv(process.env, [], {}),
    startupMs: server.timeouts.startupMs,
    shutdownMs: server.timeouts.shutdownMs,
    stdinGraceMs: 500,
    ...(pool ? { pool } : {}),
    ...(containment ? { containment } : {}),
  });
  const close = async () => {
    await conn.close('stopped');
    await pool?.close();
  };
  try {
    await conn.initialize();
    await listAllTools(conn, server.timeouts.startupMs);
  } catch (err) {
    await close();
    throw err;
  }
  return {
    pid: () => conn.pid,
    call: (tool, args) =>
      callToolText(conn, tool, args, { timeoutMs: CALL_TIMEOUT_MS, maxBytes: server.maxResultBytes }),
    close,
  };
}

/** The official SDK client over its stdio transport, connected (initialize done) to the same fixture. */
export async function connectSdk(
  opts: { maxBufferSize?: number; onError?: (err: Error) => void; args?: string[] } = {},
): Promise<Contender & { client: Client; transport: StdioClientTransport }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [FIXTURE, ...(opts.args ?? [])],
    cwd: process.cwd(),
    // piped and drained, as ours does, so neither side pays for a terminal
    stderr: 'pipe',
    ...(opts.maxBufferSize !== undefined ? { maxBufferSize: opts.maxBufferSize } : {}),
  });
  transport.stderr?.on('data', () => {});
  const client = new Client({ name: 'bench', version: '0.0.0' });
  if (opts.onError) client.onerror = opts.onError;
  const limits = { timeout: CALL_TIMEOUT_MS, maxTotalTimeout: CALL_TIMEOUT_MS };
  try {
    await client.connect(transport, limits);
  } catch (err) {
    await client.close();
    throw err;
  }
  return {
    client,
    transport,
    pid: () => transport.pid ?? undefined,
    call: async (tool, args) => {
      const result = await client.callTool({ name: tool, arguments: args }, undefined, limits);
      const first = (result.content as Array<{ type: string; text?: string }> | undefined)?.[0];
      return first?.type === 'text' && typeof first.text === 'string' ? first.text : '';
    },
    close: () => client.close(),
  };
}
