import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SimulatedClock } from 'xstate';
import { buildChildEnv } from '../../src/process/child-env.js';
import { SupervisorError } from '../../src/protocol/errors.js';
import { callToolResult, callToolText, listAllTools } from '../../src/protocol/tool-calls.js';
import { FramePool } from '../../src/workers/frame-pool.js';
import { eventually } from '../supervisor/fleet.js';
import { fixtureConnections, gone, readLog, tempDir } from '../supervisor/helpers.js';

const fx = fixtureConnections();
const dirs: Array<{ cleanup(): void }> = [];
const pools: FramePool[] = [];
afterEach(async () => {
  await fx.reap();
  fx.events.length = 0;
  for (const d of dirs.splice(0)) d.cleanup();
  await Promise.all(pools.splice(0).map((p) => p.close()));
});
const tmp = () => {
  const t = tempDir();
  dirs.push(t);
  return t.dir;
};
const call = { timeoutMs: 5000, maxBytes: 65536 };
/** A timeout no test here lives to see. */
const LONG_MS = 10 * 60_000;
/** Lets what a timer fired inside increment() set off run to its end: nothing here waits for real time. */
const turn = () => new Promise((r) => setImmediate(r));

describe('McpConnection against the real fixture', () => {
  it('probes with one server/discover (id 0), falls back to initialize, then lists and calls', async () => {
    const log = join(tmp(), 'log');
    const conn = fx.open(['--log', log]);
    const init = await conn.initialize();
    expect(init.protocolVersion).toBe('2025-11-25');
    const tools = await listAllTools(conn, 5000);
    expect(tools.map((t) => t.name)).toContain('echo');
    expect(await callToolText(conn, 'echo', { text: 'hi' }, call)).toBe('hi');
    const seen = readLog(log);
    expect(seen[0]).toMatchObject({
      id: 0,
      method: 'server/discover',
      params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } },
    });
    expect(seen[1]).toMatchObject({ id: 1, method: 'initialize' });
    expect((seen[1]?.params as { capabilities?: object } | undefined)?.capabilities).toEqual({});
    expect(seen[2]).toMatchObject({ method: 'notifications/initialized' });
    expect(seen.filter((m) => m.method === 'server/discover')).toHaveLength(1);
    // A 2025 server is spoken to as one: no 2026 envelope after the fallback.
    expect(seen.slice(1).some((m) => JSON.stringify(m).includes('io.modelcontextprotocol/'))).toBe(false);
    expect(conn.era).toBe('legacy');
  });

  it('refuses to send anything else before the handshake', async () => {
    const conn = fx.open();
    await expect(conn.request('tools/list', {}, { timeoutMs: 1000 })).rejects.toMatchObject({
      code: 'HANDSHAKE_FAILED',
    });
  });

  it('passes no host secret to the child, only the allowlist, inheritEnv and env', async () => {
    const host = { ...process.env, MCP_TEST_SECRET: 'hunter2', MCP_TEST_LANG: 'xx' };
    const conn = fx.open([], { env: buildChildEnv(host, ['MCP_TEST_LANG'], { MODE: 'dev' }) });
    await conn.initialize();
    const env = JSON.parse(await callToolText(conn, 'env', {}, call)) as Record<string, string>;
    expect(env.MCP_TEST_SECRET).toBeUndefined();
    expect(env.MCP_TEST_LANG).toBe('xx');
    expect(env.MODE).toBe('dev');
    expect(env.PATH).toBe(process.env.PATH);
    const extra = Object.keys(env).filter(
      (k) => !['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER'].includes(k),
    );
    expect(extra.sort()).toEqual(['MCP_TEST_LANG', 'MODE']);
  });

  it('skips noise and invalid JSON-RPC on stdout without desync', async () => {
    const conn = fx.open(['--noise', '--invalid-jsonrpc']);
    await conn.initialize();
    for (let i = 0; i < 5; i++)
      expect(await callToolText(conn, 'echo', { text: `m${i}` }, call)).toBe(`m${i}`);
    expect(conn.noiseCount).toBeGreaterThan(5);
  });

  it('reassembles responses dribbled a few bytes at a time, multi-byte characters included', async () => {
    const conn = fx.open(['--dribble', '3']);
    await conn.initialize();
    const text = await callToolText(conn, 'big', { bytes: 3001, char: 'é' }, call);
    expect(Buffer.byteLength(text)).toBe(3001);
    expect(text.startsWith('ééé')).toBe(true);
  });

  it('follows nextCursor to the end', async () => {
    const conn = fx.open(['--tools', '25', '--page-size', '7']);
    await conn.initialize();
    const names = (await listAllTools(conn, 5000)).map((t) => t.name);
    expect(names.filter((n) => n.startsWith('tool_'))).toHaveLength(25);
    expect(new Set(names).size).toBe(names.length);
  });

  it('a hung call resolves at its timeout and tells the server to cancel', async () => {
    const log = join(tmp(), 'log');
    // The deadline runs on the connection's clock: the test moves it, a loaded machine cannot.
    const clock = new SimulatedClock();
    const conn = fx.open(['--log', log], { clock });
    await conn.initialize();
    let settled = false;
    // Written, and its deadline armed on the clock, before callToolText returns.
    const hung = callToolText(conn, 'hang', {}, { timeoutMs: 150, maxBytes: 1000 }).finally(() => {
      settled = true;
    });
    clock.increment(149);
    await turn();
    expect(settled).toBe(false);
    clock.increment(1);
    expect(await hung).toBe("ERROR: tool 'hang' timed out after 150 ms");
    await eventually(
      () => readLog(log).some((m) => m.method === 'notifications/cancelled'),
      5000,
      'the cancel',
    );
    const cancel = readLog(log).find((m) => m.method === 'notifications/cancelled');
    expect(cancel?.params).toMatchObject({ requestId: 2, reason: 'timed out after 150 ms' });
    expect(fx.events.some((e) => e.type === 'call_timeout')).toBe(true);
    expect(await callToolText(conn, 'echo', { text: 'after' }, call)).toBe('after');
  });

  it("a caller's AbortSignal cancels the call", async () => {
    const conn = fx.open();
    await conn.initialize();
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 50);
    const text = await callToolText(conn, 'hang', {}, { ...call, signal: ac.signal });
    expect(text).toBe("ERROR: 'tools/call' cancelled by the caller");
  });

  it('a crash mid-call resolves at once, not at the timeout, and reports the exit as data', async () => {
    const conn = fx.open();
    await conn.initialize();
    // Timeouts far past the test's own: only the exit can end these calls, and the text says it did.
    const pending = callToolText(conn, 'hang', {}, { timeoutMs: LONG_MS, maxBytes: 1000 });
    const text = await callToolText(conn, 'crash', { code: 7 }, { timeoutMs: LONG_MS, maxBytes: 1000 });
    expect(text).toMatch(/^ERROR: server exited \(code 7\) during the call/);
    expect(await pending).toMatch(/^ERROR: server exited \(code 7\)/);
    const exit = await conn.exited;
    expect(exit).toMatchObject({ code: 7, signal: null, reason: 'exited', requested: false, forced: false });
    expect(await callToolText(conn, 'echo', {}, call)).toMatch(
      /^ERROR: server exited \(code 7\) before 'tools\/call'/,
    );
  });

  it('server errors, error results and invalid results all become ERROR strings', async () => {
    const conn = fx.open();
    await conn.initialize();
    expect(await callToolText(conn, 'error', { message: 'nope' }, call)).toBe(
      'ERROR: server error -32000: nope',
    );
    expect(await callToolText(conn, 'fail', { message: 'bad input' }, call)).toBe('ERROR: bad input');
    expect(await callToolText(conn, 'no_such_tool', {}, call)).toMatch(/^ERROR: server error -32602/);
    const r = await callToolResult(conn, 'fail', { message: 'x' }, call);
    expect(r.isError).toBe(true);
  });

  it('an oversize response fails that call only; the connection lives on', async () => {
    const conn = fx.open(['--oversize', String(3 * 1024 * 1024)], { maxLineBytes: 1024 * 1024 });
    await conn.initialize();
    const text = await callToolText(conn, 'big', { bytes: 10 }, call);
    expect(text).toMatch(/^ERROR: response of \d+ bytes exceeds the line limit/);
    expect(await callToolText(conn, 'echo', { text: 'alive' }, call)).toBe('alive');
  });

  it('large results are flattened and capped on the worker pool with the same text', async () => {
    const pool = new FramePool({ maxThreads: 1 });
    pools.push(pool);
    const conn = fx.open([], { pool });
    await conn.initialize();
    const text = await callToolText(
      conn,
      'big',
      { bytes: 2 * 1024 * 1024, char: '😀' },
      { timeoutMs: 10_000, maxBytes: 1000 },
    );
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(1000);
    expect(text).toMatch(/^😀+… \[truncated \d+ bytes\]$/u);
    const img = await callToolText(conn, 'image', { bytes: 300_000 }, call);
    expect(img).toBe('[image: image/png, 293.0 KiB]');
  });

  it('answers sampling and elicitation with -32601 and roots with -32601 when none are configured', async () => {
    const log = join(tmp(), 'log');
    const conn = fx.open(['--log', log, '--server-requests']);
    await conn.initialize();
    // the fixture sends its three requests right after the handshake; the third answer is the last one
    await eventually(
      () => readLog(log).filter((m) => 'error' in m || 'result' in m).length >= 3,
      5000,
      'answers',
    );
    const answers = readLog(log).filter((m) => 'error' in m || 'result' in m);
    expect(answers.map((a) => [a.id, (a.error as { code: number } | undefined)?.code])).toEqual([
      [0, -32601],
      [1, -32601],
      [2, -32601],
    ]);
    const refused = fx.events
      .filter((e) => e.type === 'refused')
      .map((e) => (e as { method: string }).method);
    expect(refused).toEqual(['sampling/createMessage', 'elicitation/create', 'roots/list']);
  });

  it('answers roots/list with the configured roots and announces the capability', async () => {
    const log = join(tmp(), 'log');
    const conn = fx.open(['--log', log], { roots: ['file:///srv/data'] });
    await conn.initialize();
    const text = await callToolText(conn, 'roots', {}, call);
    expect(JSON.parse(text)).toEqual({ result: { roots: [{ uri: 'file:///srv/data', name: 'data' }] } });
    const init = readLog(log).find((m) => m.method === 'initialize');
    expect((init?.params as { capabilities?: object } | undefined)?.capabilities).toEqual({
      roots: { listChanged: false },
    });
  });

  it('surfaces tools/list_changed and answers health pings', async () => {
    const conn = fx.open();
    await conn.initialize();
    expect(await callToolText(conn, 'change_tools', {}, call)).toBe('changed');
    expect(fx.events.some((e) => e.type === 'tools_changed')).toBe(true);
    expect(await conn.ping(1000)).toBe(true);
    const mute = fx.open(['--no-pong']);
    await mute.initialize();
    expect(await mute.ping(100)).toBe(false);
  });

  it('fails the start cleanly on an unsupported protocol version, a hung handshake or a crash in it', async () => {
    await expect(fx.open(['--protocol-version', '2099-01-01']).initialize()).rejects.toMatchObject({
      code: 'UNSUPPORTED_PROTOCOL',
    });
    // The startup bound runs on the connection's clock, moved once the fixture has the initialize it never answers
    // (the default bound, 5 s, would not be reached by 200 ms of it).
    const log = join(tmp(), 'log');
    const clock = new SimulatedClock();
    const hung = fx.open(['--hang-initialize', '--log', log], { startupMs: 200, clock }).initialize();
    await eventually(() => readLog(log).some((m) => m.method === 'initialize'), 5000, 'the initialize');
    clock.increment(200);
    await expect(hung).rejects.toMatchObject({ code: 'HANDSHAKE_TIMEOUT' });
    await expect(fx.open(['--crash-in-handshake']).initialize()).rejects.toMatchObject({
      code: 'SERVER_EXITED',
    });
  });

  it('reports a spawn failure and an exit at start as data, with the stderr tail', async () => {
    const missing = fx.open([], { command: '/nonexistent/mcp-server' });
    await expect(missing.initialize()).rejects.toBeInstanceOf(SupervisorError);
    expect((await missing.exited).reason).toBe('spawn_failed');
    const early = fx.open(['--exit-at-start', '4']);
    const exit = await early.exited;
    expect(exit.code).toBe(4);
    expect(exit.stderrTail).toMatch(/exit/i);
  });

  it('teardown escalates to SIGKILL for a server that ignores SIGTERM, and reaps its grandchild', async () => {
    const pidFile = join(tmp(), 'pids.json');
    const conn = fx.open(['--ignore-sigterm', '--ignore-stdin-eof', '--grandchild', '--pid-file', pidFile], {
      shutdownMs: 200,
    });
    await conn.initialize();
    const { pid, grandchild } = JSON.parse(readFileSync(pidFile, 'utf8')) as {
      pid: number;
      grandchild: number;
    };
    const [a, b] = [conn.close(), conn.close()];
    expect(a).toBe(b);
    // Deaf to EOF and SIGTERM: only the SIGKILL after the 200 ms shutdown wait ends it, and the flags say so.
    const exit = await a;
    expect(exit).toMatchObject({ requested: true, timedOut: true, forced: true, signal: 'SIGKILL' });
    expect(await gone(pid)).toBe(true);
    expect(await gone(grandchild)).toBe(true);
  });

  it('a well-behaved server exits on stdin close without signals; a crashed one leaves no grandchild', async () => {
    const conn = fx.open();
    await conn.initialize();
    const exit = await conn.close();
    expect(exit).toMatchObject({ code: 0, requested: true, timedOut: false, forced: false });
    const pidFile = join(tmp(), 'pids.json');
    const crashy = fx.open(['--grandchild', '--pid-file', pidFile]);
    await crashy.initialize();
    const { grandchild } = JSON.parse(readFileSync(pidFile, 'utf8')) as { grandchild: number };
    await callToolText(crashy, 'crash', {}, call);
    expect(await gone(grandchild)).toBe(true);
  });
});
