import { describe, expect, it } from 'vitest';
import {
  INITIALIZE,
  MCP_POST,
  raw,
  type SseStream,
  sse,
  startHttpServe,
} from '../../gateway/http/helpers.js';
import { serveClients, until } from '../../gateway/serve-helpers.js';
import { allGone, pidOf, writeFixtureConfig } from '../helpers.js';

// SIGTERM retires a `serve --http` behind a load balancer: /readyz turns 503 at once while work is still taken for
// serve.drain.delay, then new requests are refused and streams end, and what is in flight finishes (up to
// serve.drain.timeout) before the fleet stops and the process exits 0.

const { cli } = serveClients();

/** A fleet of one fixture server, `fx`, and a `serve.drain` of these durations. */
function drainConfig(delay: string, timeout: string): { config: string; dir: string } {
  const dir = cli.tempDir();
  const head = `serve:\n  drain: { delay: ${delay}, timeout: ${timeout} }\n`;
  const config = writeFixtureConfig(
    dir,
    [{ id: 'fx', timeouts: '{ startup: 5s, call: 60s, shutdown: 1s }' }],
    head,
  );
  return { config, dir };
}

/** A 2025 session opened by hand: the headers its later requests carry. */
async function openSession(url: URL): Promise<Record<string, string>> {
  const init = await raw(url, { method: 'POST', headers: MCP_POST, body: INITIALIZE });
  expect(init.status).toBe(200);
  const session = {
    'Mcp-Session-Id': String(init.headers['mcp-session-id']),
    'Mcp-Protocol-Version': '2025-11-25',
  };
  const initialized = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' });
  const ack = await raw(url, { method: 'POST', headers: { ...MCP_POST, ...session }, body: initialized });
  expect(ack.status).toBe(202);
  return session;
}

/** Calls a fixture tool in `session`; resolves once the server is at it (the answer's stream is primed). */
async function callInFlight(
  url: URL,
  session: Record<string, string>,
  name: string,
  args: Record<string, unknown>,
): Promise<SseStream> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 7,
    method: 'tools/call',
    params: { name, arguments: args },
  });
  const call = await sse(url, { method: 'POST', headers: { ...MCP_POST, ...session }, body });
  expect(call.headers['content-type']).toBe('text/event-stream');
  await until(() => (call.events.length > 0 ? true : undefined), 10_000, `${name} under way`);
  return call;
}

const status = async (url: URL, path: string) => (await raw(url, { path })).status;

describe('serve --http on SIGTERM', () => {
  it('turns /readyz 503 at once, keeps /healthz 200, lets a call past the delay finish, refuses new work, ends a GET stream, exits 0', async () => {
    const { config } = drainConfig('300ms', '20s');
    const serve = await startHttpServe(cli, config);
    // Ready once the fleet is up (the probe itself starts it).
    await until(
      async () => ((await status(serve.url, '/readyz')) === 200 ? true : undefined),
      10_000,
      'ready',
    );
    const session = await openSession(serve.url);
    const get = await sse(serve.url, { headers: { Accept: 'text/event-stream', ...session } });
    expect(get.status).toBe(200);
    // Far past the delay, well inside the timeout.
    const call = await callInFlight(serve.url, session, 'fx.slow', { ms: 2500 });

    serve.proc.child.kill('SIGTERM');
    await until(
      async () => ((await status(serve.url, '/readyz')) === 503 ? true : undefined),
      5000,
      '/readyz at 503',
    );
    // The call is still running: the drain is not done, and a liveness probe must not kill the instance.
    expect(await status(serve.url, '/healthz')).toBe(200);
    expect(call.events.some((e) => e.data.includes('"done"'))).toBe(false);

    await serve.proc.waitFor(/draining: new requests get 503/);
    await get.ended;
    const late = await raw(serve.url, { method: 'POST', headers: MCP_POST, body: INITIALIZE });
    expect(late.status).toBe(503);
    expect(late.headers.connection).toBe('close');
    expect(JSON.parse(late.body)).toMatchObject({ error: { message: 'Server is draining' } });
    expect(await status(serve.url, '/healthz')).toBe(200);

    await call.ended;
    expect(JSON.parse(call.events.at(-1)!.data)).toMatchObject({
      id: 7,
      result: { content: [{ type: 'text', text: 'done' }] },
    });
    const exit = await serve.proc.exited;
    expect(exit.code).toBe(0);
    const lines = exit.stderr.split('\n').filter((l) => l.includes('draining: '));
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/draining: \/readyz answers 503; requests are still taken for 300ms/);
    expect(lines[1]).toMatch(
      /draining: new requests get 503 and open streams are ended; 1 request in flight/,
    );
    expect(lines[2]).toMatch(/draining: every request in flight has ended/);
  }, 60_000);

  it('cuts a call still running at the timeout, and exits 0', async () => {
    const { config, dir } = drainConfig('0ms', '500ms');
    const serve = await startHttpServe(cli, config);
    const session = await openSession(serve.url);
    const call = await callInFlight(serve.url, session, 'fx.hang', {});
    const fx = await pidOf(dir, 'fx');
    serve.proc.child.kill('SIGTERM');
    await call.ended;
    expect(call.events.some((e) => e.data.includes('"result"'))).toBe(false);
    const exit = await serve.proc.exited;
    expect(exit.code).toBe(0);
    expect(exit.stderr).toMatch(/level=warn .*draining: 1 request still in flight at the timeout cut/);
    expect(await allGone([fx], 3000)).toBe(true);
  }, 60_000);

  it('stops at once on a second SIGTERM during the delay (exit 130, servers reaped)', async () => {
    const { config, dir } = drainConfig('1m', '1m');
    const serve = await startHttpServe(cli, config);
    await openSession(serve.url);
    const fx = await pidOf(dir, 'fx');
    serve.proc.child.kill('SIGTERM');
    await serve.proc.waitFor(/draining: \/readyz answers 503/);
    serve.proc.child.kill('SIGTERM');
    const exit = await serve.proc.exited;
    expect(exit.code).toBe(130);
    expect(exit.stderr).not.toMatch(/draining: new requests/);
    expect(await allGone([fx], 3000)).toBe(true);
  }, 60_000);

  it('leaves SIGINT as it was: no delay, nothing waited for, exit 0', async () => {
    const { config } = drainConfig('1m', '1m');
    const serve = await startHttpServe(cli, config);
    const session = await openSession(serve.url);
    const call = await callInFlight(serve.url, session, 'fx.hang', {});
    serve.proc.child.kill('SIGINT');
    const exit = await serve.proc.exited;
    await call.ended;
    expect(exit.code).toBe(0);
    expect(exit.stderr).toMatch(/msg=stopped/);
    expect(exit.stderr).not.toMatch(/draining: /);
  }, 60_000);
});
