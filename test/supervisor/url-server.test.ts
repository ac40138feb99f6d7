import { afterEach, describe, expect, it } from 'vitest';
import type { ServerConfig } from '../../src/config/types.js';
import type { SupervisorEvent } from '../../src/supervisor/types.js';
import { httpFixtures } from '../fixtures/http-fixture.js';
import { eventually, fixtureServer, fleetConfig, fleets, transitions } from './fleet.js';

const f = fleets();
const fixtures = httpFixtures();
afterEach(async () => {
  await f.reap();
  await fixtures.killAll();
});

function urlServer(id: string, url: string, over: Partial<ServerConfig> = {}): ServerConfig {
  return fixtureServer(id, [], {
    command: '',
    args: [],
    remote: { url, headers: {} },
    timeouts: { startupMs: 3000, callMs: 20_000, shutdownMs: 1000 },
    ...over,
  });
}

const exits = (events: SupervisorEvent[]) => events.flatMap((e) => (e.type === 'exit' ? [e] : []));

describe('a url: server under supervision', () => {
  it('is ready with its tools, takes calls with its headers, has no pid, and its stop ends the session', async () => {
    const fx = await fixtures.start(['--require-header', 'authorization:Bearer s3cret']);
    const server = urlServer('web', fx.url, {
      remote: { url: fx.url, headers: { Authorization: 'Bearer s3cret' } },
    });
    const { sup, events } = f.create(fleetConfig([server]));
    await sup.start();
    expect(sup.status()[0]).toMatchObject({ id: 'web', state: 'ready', containment: 'remote' });
    expect(sup.status()[0]).not.toHaveProperty('pid');
    expect(sup.listTools().map((t) => t.name)).toEqual(expect.arrayContaining(['web.echo', 'web.slow']));
    expect(await sup.callTool('web.echo', { text: 'hi' })).toBe('hi');
    // list_changed comes on the session's GET stream, and the re-list goes out with the headers too.
    expect(await sup.callTool('web.add_tool')).toBe('added_1');
    await eventually(() => sup.listTools().some((t) => t.name === 'web.added_1'), 5000, 'the added tool');
    expect(await sup.callTool('web.added_1')).toBe('added_1');
    expect(transitions(events, 'web')).toEqual([
      'stopped>spawning',
      'spawning>approving',
      'approving>handshaking',
      'handshaking>ready',
    ]);
    await sup.stop();
    const deleted = await fx.waitFor((r) => r.method === 'DELETE');
    expect(deleted.headers['authorization']).toBe('Bearer s3cret');
  });

  it('without the header the server wants: a coded connect failure with the status, then backoff', async () => {
    const fx = await fixtures.start(['--require-header', 'authorization:Bearer s3cret']);
    const { sup, events } = f.create(fleetConfig([urlServer('web', fx.url)]));
    void sup.start();
    await eventually(() => transitions(events, 'web').includes('handshaking>backoff'), 5000, 'backoff');
    expect(exits(events)[0]).toMatchObject({
      server: 'web',
      reason: 'connect_failed',
      linkError: { url: fx.url, status: 401 },
    });
  });

  it('a dropped connection fails the call in flight at once, goes to backoff, and reconnects to a new server', async () => {
    const fx = await fixtures.start();
    // Refused reconnects count as restarts until the new server listens: room for many, each soon after the last.
    const restart = fixtureServer('x', [], {
      restart: { limit: { maxRestarts: 100, windowMs: 60_000 } },
    }).restart;
    const server = urlServer('web', fx.url, { restart });
    const { sup, events } = f.create(fleetConfig([server]));
    await sup.start();
    // A timeout no test lives to see: only the drop can end the call, and its code says it did.
    const call = sup.callToolOutcome('web.slow', { ms: 60_000 }, { timeoutMs: 10 * 60_000 });
    await fx.waitFor((r) => r.rpc === 'tools/call');
    await fx.kill();
    const outcome = await call;
    expect(outcome).toMatchObject({ ok: false, code: 'SERVER_DISCONNECTED', server: 'web' });
    expect(exits(events)[0]).toMatchObject({ reason: 'disconnected', linkError: { url: fx.url } });
    await eventually(() => transitions(events, 'web').includes('ready>backoff'), 5000, 'backoff');
    // The same address again: the next reconnect finds it, with a fresh session.
    const again = await fixtures.start(['--port', String(fx.port)]);
    await eventually(() => sup.status()[0]?.state === 'ready', 10_000, 'ready again');
    expect(await sup.callTool('web.pid')).toBe(String(again.pid));
    expect((await again.waitFor((r) => r.rpc === 'initialize')).session).toBeNull();
  });

  it('health pings go over HTTP and keep a healthy server ready', async () => {
    const fx = await fixtures.start();
    const server = urlServer('web', fx.url, {
      health: { intervalMs: 50, timeoutMs: 3000, failureThreshold: 1 },
    });
    const { sup, events } = f.create(fleetConfig([server]));
    await sup.start();
    // With a threshold of one, a single missed pong would have wedged it: three answered ones prove the pings ran.
    await eventually(() => fx.seen.filter((r) => r.rpc === 'ping').length >= 3, 5000, 'three pings');
    expect(sup.status()[0]?.state).toBe('ready');
    expect(transitions(events, 'web')).toEqual([
      'stopped>spawning',
      'spawning>approving',
      'approving>handshaking',
      'handshaking>ready',
    ]);
  });

  it('a server that stops answering is wedged by its missed pings, and its session is closed, not waited on', async () => {
    const fx = await fixtures.start();
    const server = urlServer('web', fx.url, {
      health: { intervalMs: 50, timeoutMs: 500, failureThreshold: 1 },
    });
    const { sup, events } = f.create(fleetConfig([server]));
    await sup.start();
    expect(await sup.callTool('web.stall')).toBe('stalling');
    const hanging = sup.callToolOutcome('web.echo', { text: 'never answered' });
    await eventually(
      () => transitions(events, 'web').includes('wedged>backoff'),
      5000,
      'backoff after wedged',
    );
    expect(transitions(events, 'web')).toContain('ready>wedged');
    expect(exits(events)[0]).toMatchObject({ reason: 'wedged' });
    // The call in flight ended with the session we closed, long before its own timeout.
    expect(await hanging).toMatchObject({ ok: false, code: 'SERVER_DISCONNECTED' });
    // Closing it asked the server to end the session, though nothing waited for an answer.
    await fx.waitFor((r) => r.method === 'DELETE');
  });
});
