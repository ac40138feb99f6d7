import { type ChildProcess, spawn } from 'node:child_process';
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { startUiServer, type UiServer, UiServerError } from '../../src/inspector/ui-server.js';
import type { ServerStatus } from '../../src/supervisor/types.js';
import { FakeSource, sampleFleet } from './fake-source.js';
import { SseClient } from './sse-client.js';

const servers: UiServer[] = [];
const clients: SseClient[] = [];
const children: ChildProcess[] = [];

afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await Promise.all(servers.splice(0).map((s) => s.close()));
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

async function start(source = new FakeSource(sampleFleet())): Promise<{ ui: UiServer; source: FakeSource }> {
  const ui = await startUiServer(source);
  servers.push(ui);
  return { ui, source };
}

async function events(url: string, headers?: Record<string, string>): Promise<SseClient> {
  const c = await SseClient.open(url, headers);
  clients.push(c);
  return c;
}

function raw(
  url: string,
  opts: { method?: string; host?: string } = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: opts.method ?? 'GET', headers: opts.host ? { host: opts.host } : {} },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => {
          body += d;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** The address of an endpoint of `ui`, with its token. */
const at = (ui: UiServer, path: string) => `http://127.0.0.1:${ui.port}/${path}?token=${ui.token}`;

const statusOf = (data: string | undefined): ServerStatus[] =>
  (JSON.parse(data ?? '{}') as { servers?: ServerStatus[] }).servers ?? [];

describe('startUiServer routes', () => {
  it('serves the status as { servers, now }', async () => {
    const { ui, source } = await start();
    const before = Date.now();
    const res = await fetch(`${at(ui, 'api/status')}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const body = (await res.json()) as { servers: ServerStatus[]; now: number };
    expect(body.servers).toEqual(source.servers);
    expect(body.now).toBeGreaterThanOrEqual(before);
    expect(body.now).toBeLessThanOrEqual(Date.now());
  });

  it('serves the statechart graph as JSON', async () => {
    const { ui, source } = await start();
    const body = await (await fetch(`${at(ui, 'api/statechart')}`)).json();
    expect(body).toEqual(source.statechart);
    expect(JSON.stringify(body)).toContain('"key":"backoff"');
  });

  it('serves a self-contained page under a CSP that allows no other origin', async () => {
    const { ui } = await start();
    const res = await fetch(ui.url);
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    const html = await res.text();
    expect(html).toContain(`<script type="module" src="/browser/page.js?token=${ui.token}"></script>`);
    expect(html).not.toMatch(/(src|href)=["']https?:/);
    expect(html).not.toMatch(/@import|url\(http/);
  });

  it('answers 404 to anything else, 405 to other methods and 403 to a foreign Host header', async () => {
    const { ui } = await start();
    expect((await fetch(`${at(ui, 'nope')}`)).status).toBe(404);
    expect((await fetch(`${at(ui, 'api/status/x')}`)).status).toBe(404);
    expect((await fetch(`${at(ui, 'api/status')}`, { method: 'POST' })).status).toBe(405);
    expect((await raw(`${at(ui, 'api/status')}`, { host: 'evil.example:80' })).status).toBe(403);
    expect((await raw(`${at(ui, 'api/status')}`, { host: `localhost:${ui.port}` })).status).toBe(200);
  });
});

describe('startUiServer access token', () => {
  it('answers 403 to every endpoint without the token or with a wrong one, and serves it with the token', async () => {
    const { ui } = await start();
    const base = `http://127.0.0.1:${ui.port}/`;
    // One character off: never the token's own last character (a random token ends in 'x' one time in 64).
    const wrong = `${ui.token.slice(0, -1)}${ui.token.endsWith('x') ? 'y' : 'x'}`;
    for (const path of ['', 'api/status', 'api/statechart', 'events']) {
      expect((await raw(`${base}${path}`)).status, path).toBe(403);
      expect((await raw(`${base}${path}?token=`)).status, path).toBe(403);
      expect((await raw(`${base}${path}?token=${wrong}`)).status, path).toBe(403);
      expect((await raw(`${base}${path}?tok=${ui.token}`)).status, path).toBe(403);
    }
    expect((await fetch(ui.url)).status).toBe(200);
    expect((await fetch(at(ui, 'api/status'))).status).toBe(200);
    const es = await events(at(ui, 'events'));
    await es.until((f) => f.some((x) => x.event === 'status'));
  });

  it('makes a fresh random token for every start, unless one is given', async () => {
    const a = (await start()).ui;
    const b = (await start()).ui;
    expect(a.token).toMatch(/^[A-Za-z0-9_-]{32,}$/);
    expect(a.token).not.toBe(b.token);
    expect(new URL(a.url).searchParams.get('token')).toBe(a.token);
    const given = await startUiServer(new FakeSource([]), { token: 'kept-across-restarts' });
    servers.push(given);
    expect((await fetch(at(given, 'api/status'))).status).toBe(200);
  });
});

describe('startUiServer event stream', () => {
  it('sends the full status first, then supervisor events in order, then a status reflecting them', async () => {
    const { ui, source } = await start();
    const es = await events(`${at(ui, 'events')}`);
    expect(es.headers?.['content-type']).toMatch(/^text\/event-stream/);
    await es.until((f) => f.some((x) => x.event === 'status'));
    const first = es.frames.find((f) => f.event !== undefined);
    expect(first?.event).toBe('status');
    expect(statusOf(first?.data)).toEqual(source.servers);

    source.exit('files', { code: 1, signal: null, reason: 'crashed', stderrTail: 'boom' });
    source.transition('files', 'backoff');
    source.emit({ type: 'refused', server: 'files', method: 'sampling/createMessage', at: Date.now() });
    await es.until(
      (f) => f.filter((x) => x.event === 'supervisor').length === 3 && f.at(-1)?.event === 'status',
    );

    const sup = es.named('supervisor').map((f) => JSON.parse(f.data ?? '{}') as { type: string });
    expect(sup.map((e) => e.type)).toEqual(['exit', 'state', 'refused']);
    const ids = es.named('supervisor').map((f) => Number(f.id?.split(':')[1]));
    expect(ids).toEqual([1, 2, 3]);
    const last = statusOf(es.frames.at(-1)?.data);
    expect(last.find((s) => s.id === 'files')?.state).toBe('backoff');
    expect(last.find((s) => s.id === 'files')?.lastExit?.stderrTail).toBe('boom');
  });

  it('throttles status pushes to at most 10 a second and still sends the last state', async () => {
    const { ui, source } = await start();
    const es = await events(`${at(ui, 'events')}`);
    await es.until((f) => f.some((x) => x.event === 'status'));
    const t0 = Date.now();
    const cycle = ['spawning', 'handshaking', 'ready', 'wedged'] as const;
    for (let i = 0; i < 40; i++) {
      source.transition('files', cycle[i % 4]!);
      await new Promise((r) => setTimeout(r, 10));
    }
    source.transition('files', 'stopped');
    // After the first, a push carries only the rows that changed (`servers`); the last is the last state.
    const pushed = (f: typeof es.frames) => f.filter((x) => x.event === 'status' || x.event === 'servers');
    await es.until(
      (f) => statusOf(pushed(f).at(-1)?.data).find((s) => s.id === 'files')?.state === 'stopped',
    );
    const elapsed = Date.now() - t0;
    const pushes = pushed(es.frames).length - 1;
    expect(es.named('supervisor')).toHaveLength(41);
    expect(pushes).toBeGreaterThanOrEqual(2);
    expect(pushes).toBeLessThanOrEqual(Math.ceil(elapsed / 100) + 1);
  });

  it('replays earlier events to a late client, and only the unseen ones after Last-Event-ID', async () => {
    const { ui, source } = await start();
    source.transition('search', 'spawning');
    source.transition('search', 'handshaking');
    source.transition('search', 'ready');
    const late = await events(`${at(ui, 'events')}`);
    await late.until((f) => f.filter((x) => x.event === 'supervisor').length === 3);
    expect(late.frames.findIndex((f) => f.event === 'status')).toBeLessThan(
      late.frames.findIndex((f) => f.event === 'supervisor'),
    );
    const secondId = late.named('supervisor')[1]?.id ?? '';
    const resumed = await events(`${at(ui, 'events')}`, { 'last-event-id': secondId });
    await resumed.until((f) => f.some((x) => x.event === 'supervisor'));
    // A live event after the replay marks its end: whatever the replay held has arrived before it.
    source.transition('search', 'stopping');
    await late.until((f) => f.filter((x) => x.event === 'supervisor').length === 4);
    await resumed.until((f) => f.some((x) => x.id === late.named('supervisor')[3]?.id));
    expect(resumed.named('supervisor').map((f) => f.id)).toEqual(
      late
        .named('supervisor')
        .slice(2)
        .map((f) => f.id),
    );
  });
});

describe('startUiServer binding and shutdown', () => {
  it('refuses any host that is not loopback', async () => {
    const source = new FakeSource([]);
    for (const host of ['0.0.0.0', '::', '192.168.1.10', 'example.com', '127.0.0.2', '']) {
      const err = await startUiServer(source, { host }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(UiServerError);
      expect((err as UiServerError).code).toBe('ui_host_not_loopback');
    }
    expect(source.listeners.size).toBe(0);
  });

  it('binds localhost to 127.0.0.1 and picks a free port for 0', async () => {
    const ui = await startUiServer(new FakeSource([]), { host: 'localhost', port: 0 });
    servers.push(ui);
    expect(ui.url).toBe(`http://127.0.0.1:${ui.port}/?token=${ui.token}`);
    expect(ui.port).toBeGreaterThan(0);
    const taken = await startUiServer(new FakeSource([]), { port: ui.port }).catch((e: unknown) => e);
    expect((taken as UiServerError).code).toBe('ui_port_in_use');
  });

  it('close() is idempotent, ends open streams and unsubscribes', async () => {
    const { ui, source } = await start();
    const es = await events(`${at(ui, 'events')}`);
    await es.until((f) => f.some((x) => x.event === 'status'));
    // The stream, the detail pane's store and its log ring each listen.
    expect(source.listeners.size).toBe(3);
    await Promise.all([ui.close(), ui.close()]);
    await ui.close();
    await es.until(() => es.ended);
    expect(source.listeners.size).toBe(0);
    // The page is told the inspector closed, after the fleet as it is at that moment.
    expect(es.frames.at(-2)?.event).toBe('status');
    expect(es.frames.at(-1)).toMatchObject({ event: 'end', data: '{"fleet":null}' });
    await expect(fetch(`${at(ui, 'api/status')}`)).rejects.toThrow();
  });

  it('never keeps the process alive after close, even with a stream open', async () => {
    const entry = fileURLToPath(new URL('../../src/inspector/ui-server.ts', import.meta.url));
    const script = `
      const { startUiServer } = await import(${JSON.stringify(entry)});
      const http = await import('node:http');
      const ui = await startUiServer({ status: () => [], subscribe: () => () => {}, statechart: { id: 'm', key: 'm', type: 'atomic', children: [], transitions: [] } });
      await new Promise((resolve) => http.get(new URL('/events?token=' + ui.token, ui.url), (res) => res.once('data', resolve)));
      await ui.close();
      console.log('closed');
    `;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    const closedAt = new Promise<number>((resolve) => {
      child.stdout?.on('data', (d: Buffer) => {
        if (d.toString().includes('closed')) resolve(Date.now());
      });
    });
    const exited = new Promise<{ code: number | null; at: number }>((resolve) =>
      child.once('exit', (code) => resolve({ code, at: Date.now() })),
    );
    const closed = await Promise.race([closedAt, exited.then(() => Number.NaN)]);
    expect(stderr).toBe('');
    expect(Number.isNaN(closed)).toBe(false);
    const exit = await Promise.race([
      exited,
      new Promise<null>((r) => setTimeout(() => r(null), 2000).unref()),
    ]);
    expect(exit, 'process still alive 2 s after close()').not.toBeNull();
    expect(exit?.code).toBe(0);
    expect((exit?.at ?? 0) - closed).toBeLessThan(2000);
  });
});
