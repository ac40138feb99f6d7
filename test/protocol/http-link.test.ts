import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { McpConnection } from '../../src/protocol/connection.js';
import type { ConnectionOptions } from '../../src/protocol/connection-types.js';
import { SupervisorError } from '../../src/protocol/errors.js';
import { httpFixtures } from '../fixtures/http-fixture.js';

const fixtures = httpFixtures();
const opened: McpConnection[] = [];

afterEach(async () => {
  await Promise.all(opened.splice(0).map((c) => c.close('stopped', { immediate: true })));
  await fixtures.killAll();
});

function connect(url: string, headers: Record<string, string> = {}, over: Partial<ConnectionOptions> = {}) {
  const conn = new McpConnection({
    serverId: 'remote',
    command: '',
    args: [],
    cwd: process.cwd(),
    env: {},
    remote: { url, headers },
    startupMs: 3000,
    shutdownMs: 1000,
    ...over,
  });
  opened.push(conn);
  return conn;
}

const call = (conn: McpConnection, name: string, args: Record<string, unknown> = {}, timeoutMs = 3000) =>
  conn.request('tools/call', { name, arguments: args }, { timeoutMs });

describe('McpConnection over Streamable HTTP', () => {
  it('leaves no listener behind on the session-long abort signal, however many calls it made', async () => {
    const f = await fixtures.start();
    const conn = connect(f.url);
    await conn.initialize();
    // The SDK transport gives every request the one signal of its session (a private field, pinned SDK version).
    const signal = (conn.link as unknown as { transport: { _abortController?: AbortController } }).transport
      ._abortController?.signal;
    expect(signal).toBeInstanceOf(AbortSignal);
    for (let i = 0; i < 50; i++) await call(conn, 'echo', { text: String(i) });
    // The GET stream and a call's answer stream may hold one each while open; fifty calls must not add fifty.
    expect(getEventListeners(signal!, 'abort').length).toBeLessThan(5);
  });

  it('handshakes, calls, sends the headers and the negotiated version, and ends the session with a DELETE', async () => {
    const f = await fixtures.start(['--require-header', 'x-api-key:k1']);
    const conn = connect(f.url, { 'X-Api-Key': 'k1' });
    const init = await conn.initialize();
    expect(init.serverInfo?.name).toBe('http-fixture');
    expect(conn.pid).toBeUndefined();
    expect(conn.link.kind).toBe('remote');
    expect(await call(conn, 'echo', { text: 'over http' })).toMatchObject({
      content: [{ type: 'text', text: 'over http' }],
    });
    const later = await f.waitFor((r) => r.rpc === 'tools/call');
    expect(later.headers['x-api-key']).toBe('k1');
    expect(later.headers['mcp-protocol-version']).toBe(init.protocolVersion);
    expect(later.session).toEqual(expect.any(String));
    const exit = await conn.close();
    expect(exit).toMatchObject({ reason: 'stopped', requested: true, code: null, signal: null });
    expect(await f.waitFor((r) => r.method === 'DELETE')).toMatchObject({ session: later.session });
  });

  it('a refused connection ends the run as connect_failed with the errno, and the handshake says CONNECT_FAILED', async () => {
    const f = await fixtures.start();
    await f.kill();
    const conn = connect(f.url);
    const err = await conn.initialize().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SupervisorError);
    expect((err as SupervisorError).code).toBe('CONNECT_FAILED');
    expect(await conn.exited).toMatchObject({
      reason: 'connect_failed',
      requested: false,
      linkError: { url: f.url, errno: 'ECONNREFUSED' },
    });
  });

  it('an HTTP error to initialize is connect_failed with its status', async () => {
    const f = await fixtures.start(['--status', '500']);
    const conn = connect(f.url);
    await expect(conn.initialize()).rejects.toMatchObject({ code: 'CONNECT_FAILED' });
    expect((await conn.exited).linkError).toMatchObject({ status: 500 });
  });

  it('a GET stream the server ends is reopened, not taken for a disconnect', async () => {
    const f = await fixtures.start(['--drop-get-after', '20']);
    const conn = connect(f.url);
    await conn.initialize();
    const first = await f.waitFor((r) => r.method === 'GET');
    await f.waitFor((r) => r.method === 'GET' && r !== first, 5000);
    expect(conn.link.exitInfo).toBeUndefined();
    expect(await call(conn, 'echo', { text: 'still here' })).toMatchObject({
      content: [{ text: 'still here' }],
    });
  });

  it('a server killed mid-call fails the call at once with SERVER_DISCONNECTED, far under its timeout', async () => {
    const f = await fixtures.start();
    const conn = connect(f.url);
    await conn.initialize();
    // A timeout far past the test's own: only the kill can end the call, and its code says it did.
    const slow = call(conn, 'slow', { ms: 60_000 }, 10 * 60_000).catch((e: unknown) => e);
    await f.waitFor((r) => r.rpc === 'tools/call');
    await f.kill();
    const err = await slow;
    expect(err).toMatchObject({ code: 'SERVER_DISCONNECTED' });
    expect(await conn.exited).toMatchObject({ reason: 'disconnected', requested: false });
  });

  it('a session the server forgot (404) ends the run as session_lost', async () => {
    const f = await fixtures.start(['--json']);
    const conn = connect(f.url);
    await conn.initialize();
    await call(conn, 'forget');
    await expect(call(conn, 'echo', { text: 'x' })).rejects.toMatchObject({ code: 'SERVER_DISCONNECTED' });
    expect(await conn.exited).toMatchObject({ reason: 'session_lost', linkError: { status: 404 } });
  });
});
