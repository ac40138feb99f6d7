import { appendFileSync } from 'node:fs';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  CreateMessageRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alive, allGone, cliProcesses, ensureBuilt, FIXTURE } from '../../cli/helpers.js';
import { received, until, writeConfig } from '../serve-helpers.js';
import {
  type HttpServe,
  httpClient,
  INITIALIZE,
  MCP_POST,
  raw,
  type SseStream,
  sse,
  startHttpServe,
} from './helpers.js';

// One `serve --http` for the whole file: every test is another client of the same fleet, as in production.
const cli = cliProcesses();
const clients: Client[] = [];
let serve: HttpServe;
let log: string;
/** The first session: it declared sampling, so the fleet's handshakes did too. */
let first: Client;

const replyFrom = (who: string) => ({
  role: 'assistant',
  content: { type: 'text', text: `from ${who}` },
  model: 'm',
});

beforeAll(async () => {
  await ensureBuilt();
  const dir = cli.tempDir();
  const written = writeConfig(dir, {
    // Short, so that SIGTERM's drain ends soon: the clients' GET streams end, and nothing else is in flight.
    head: ['serve: { drain: { delay: 100ms, timeout: 3s } }'],
    fx: ['allow: [sampling]', 'roots: client'],
    fxFlags: ['--resources', '2', '--logging'],
  });
  log = written.log;
  // A server that ignores SIGTERM keeps the fleet stopping for its shutdown timeout: /healthz can be seen at 503.
  appendFileSync(
    written.config,
    [
      '  stubborn:',
      `    command: ${JSON.stringify(process.execPath)}`,
      `    args: [${JSON.stringify(FIXTURE)}, "--ignore-sigterm", "--ignore-stdin-eof"]`,
      '    timeouts: { startup: 5s, call: 5s, shutdown: 1500ms }',
      '',
    ].join('\n'),
  );
  serve = await startHttpServe(cli, written.config);
  ({ client: first } = await httpClient(serve.url, clients, {
    client: { capabilities: { sampling: {} } },
    before: (c) => c.setRequestHandler(CreateMessageRequestSchema, async () => replyFrom('first')),
  }));
}, 120_000);

afterAll(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => {})));
  await cli.reap();
});

const text = (r: object) => ((r as { content?: Array<{ text?: string }> }).content ?? [])[0]?.text ?? '';

describe('serve --http', () => {
  it('prints its URL and gives each of many concurrent clients its own session over the one fleet', async () => {
    expect(serve.proc.stderr()).toContain(`listening on ${serve.url.href}\n`);
    expect(serve.url.pathname).toBe('/mcp');
    const three = await Promise.all([1, 2, 3].map(() => httpClient(serve.url, clients)));
    const ids = three.map((c) => c.transport.sessionId);
    expect(new Set([...ids, undefined]).size).toBe(4);
    const names = (await three[0]!.client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['fx.echo', 'ev.echo', 'fx.touch_resource']));
    const answers = await Promise.all(
      three.map((c, i) => c.client.callTool({ name: 'fx.echo', arguments: { text: `hi ${i}` } })),
    );
    expect(answers.map(text)).toEqual(['hi 0', 'hi 1', 'hi 2']);
    // One fleet: every session reaches the same server process.
    const pids = await Promise.all(three.map((c) => c.client.callTool({ name: 'fx.pid', arguments: {} })));
    expect(new Set(pids.map(text)).size).toBe(1);
  }, 30_000);

  it('serves prompts, completion, resources and templates as over stdio', async () => {
    const { client } = await httpClient(serve.url, clients);
    const caps = client.getServerCapabilities();
    expect(caps).toMatchObject({ prompts: {}, completions: {}, logging: {}, resources: { subscribe: true } });
    const prompt = await client.getPrompt({ name: 'ev.args-prompt', arguments: { city: 'Porto' } });
    expect(JSON.stringify(prompt.messages)).toContain('Porto');
    const done = await client.complete({
      ref: { type: 'ref/prompt', name: 'ev.completable-prompt' },
      argument: { name: 'name', value: '' },
      context: { arguments: { department: 'Support' } },
    });
    expect(done.completion.values).toEqual(['John', 'Kim', 'Lee']);
    const read = await client.readResource({ uri: 'fixture://resource/2' });
    expect(read.contents).toEqual([
      expect.objectContaining({ text: expect.stringMatching(/^fixture:\/\/resource\/2 from \d+$/) }),
    ]);
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toContain('fixture://item/{id}');
  }, 30_000);

  it('carries tools/list_changed, resources/updated and log messages on the GET stream', async () => {
    const changed: number[] = [];
    const updated: string[] = [];
    const logs: unknown[] = [];
    const { client: a } = await httpClient(serve.url, clients, {
      before: (c) => {
        c.setNotificationHandler(ToolListChangedNotificationSchema, async () => void changed.push(1));
        c.setNotificationHandler(
          ResourceUpdatedNotificationSchema,
          async (n) => void updated.push(n.params.uri),
        );
        c.setNotificationHandler(
          LoggingMessageNotificationSchema,
          async (n) => void logs.push(n.params.data),
        );
      },
    });
    const { client: b } = await httpClient(serve.url, clients);
    // A URI only one server has is exposed unchanged.
    const mine = { uri: 'fixture://resource/1' };
    await a.subscribeResource(mine);
    await b.callTool({ name: 'fx.touch_resource', arguments: { uri: 'fixture://resource/1' } });
    await until(() => (updated.includes(mine.uri) ? true : undefined), 10_000, 'resources/updated at A');
    await b.callTool({ name: 'fx.change_tools', arguments: {} });
    await until(() => (changed.length > 0 ? true : undefined), 10_000, 'tools/list_changed at A');
    await a.setLoggingLevel('debug');
    await until(
      () => (logs.some((d) => String(d).includes('level set to debug')) ? true : undefined),
      10_000,
      'the server’s log message at A',
    );
  }, 30_000);

  it('relays progress on the POST stream, and notifications/cancelled reaches the child', async () => {
    const { client } = await httpClient(serve.url, clients);
    const steps: number[] = [];
    const done = await client.callTool(
      { name: 'ev.trigger-long-running-operation', arguments: { duration: 0.4, steps: 2 } },
      undefined,
      { onprogress: (p) => void steps.push(p.progress), timeout: 20_000 },
    );
    expect(text(done)).toContain('Steps: 2');
    expect(steps).toEqual([1, 2]);

    const abort = new AbortController();
    const call = client.callTool({ name: 'fx.slow', arguments: { ms: 30_000 } }, undefined, {
      signal: abort.signal,
    });
    const slow = await until(
      () => received(log).find((m) => m.method === 'tools/call' && m.params?.name === 'slow'),
      10_000,
      'the slow call at the child',
    );
    abort.abort('changed my mind');
    await expect(call).rejects.toThrow();
    const cancelled = await until(
      () => received(log).find((m) => m.method === 'notifications/cancelled'),
      10_000,
      'notifications/cancelled at the child',
    );
    expect(cancelled.params?.requestId).toBe(slow.id);
  }, 30_000);

  it('DELETE ends a session: its id is unknown after, and its subscriptions are released', async () => {
    const { client, transport } = await httpClient(serve.url, clients);
    const { client: other } = await httpClient(serve.url, clients);
    await client.subscribeResource({ uri: 'fixture://resource/2' });
    const subscribed = async () =>
      JSON.parse(
        text(await other.callTool({ name: 'fx.touch_resource', arguments: { uri: 'fixture://resource/1' } })),
      ) as string[];
    expect(await subscribed()).toContain('fixture://resource/2');
    const id = transport.sessionId!;
    await transport.terminateSession();
    const after = await raw(serve.url, {
      method: 'POST',
      headers: { ...MCP_POST, 'Mcp-Session-Id': id, 'Mcp-Protocol-Version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
    });
    expect(after.status).toBe(404);
    await until(
      async () => ((await subscribed()).includes('fixture://resource/2') ? undefined : true),
      10_000,
      'the unsubscribe at the server',
    );
  }, 30_000);

  it('answers a server’s sampling through the session whose call it serves, whoever initialized last', async () => {
    const { client: later, transport } = await httpClient(serve.url, clients, {
      client: { capabilities: { sampling: {} } },
      before: (c) => c.setRequestHandler(CreateMessageRequestSchema, async () => replyFrom('later')),
    });
    const sample = async (c: Client) => text(await c.callTool({ name: 'fx.sample', arguments: {} }));
    expect(await sample(first)).toContain('from first');
    expect(await sample(later)).toContain('from later');
    await transport.terminateSession();
    await later.close();
    expect(await sample(first)).toContain('from first');
  }, 30_000);

  it('a server’s roots are those of the client whose call asks; the servers are told when roots come and go', async () => {
    const rootsChanged = () =>
      received(log).filter((m) => m.method === 'notifications/roots/list_changed').length;
    const roots = async (c: Client) =>
      JSON.parse(text(await c.callTool({ name: 'fx.roots', arguments: {} })));
    // The first session declared no roots: its calls get none, whoever else has some.
    expect((await roots(first)).error?.code).toBe(-32601);
    const before = rootsChanged();
    const { client: rooted, transport } = await httpClient(serve.url, clients, {
      client: { capabilities: { roots: { listChanged: true } } },
      before: (c) =>
        c.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri: 'file:///r1' }] })),
    });
    await until(
      () => (rootsChanged() > before ? true : undefined),
      10_000,
      'roots/list_changed on the handover',
    );
    expect(await roots(rooted)).toEqual({ result: { roots: [{ uri: 'file:///r1' }] } });
    expect((await roots(first)).error).toMatchObject({
      code: -32601,
      data: { code: 'CALLER_CANNOT_ANSWER' },
    });
    await transport.terminateSession();
    await until(
      () => (rootsChanged() > before + 1 ? true : undefined),
      10_000,
      'roots/list_changed at its end',
    );
    expect((await roots(first)).error?.code).toBe(-32601);
  }, 30_000);

  it('refuses forged Host and Origin (403), unknown paths (404) and wrong methods (405)', async () => {
    const port = serve.url.port;
    const init = (headers: Record<string, string>) =>
      raw(serve.url, { method: 'POST', headers: { ...MCP_POST, ...headers }, body: INITIALIZE });
    expect((await init({ Host: `rebind.example:${port}` })).status).toBe(403);
    expect((await init({ Host: `localhost:${port}`, Origin: 'http://rebind.example' })).status).toBe(403);
    expect((await init({ Origin: 'null' })).status).toBe(403);
    const ok = await init({ Host: `localhost:${port}`, Origin: `http://localhost:${port}` });
    expect(ok.status).toBe(200);
    expect(ok.headers['mcp-session-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect((await raw(serve.url, { path: '/elsewhere' })).status).toBe(404);
    const put = await raw(serve.url, { method: 'PUT', headers: MCP_POST, body: '{}' });
    expect([put.status, put.headers.allow]).toEqual([405, 'GET, POST, DELETE']);
    expect((await raw(serve.url, { method: 'POST', path: '/healthz' })).status).toBe(405);
    const noSession = await raw(serve.url, {
      method: 'POST',
      headers: MCP_POST,
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(noSession.status).toBe(400);
    expect((await raw(serve.url, { path: '/healthz', headers: { Host: 'rebind.example' } })).status).toBe(
      403,
    );
    expect((await raw(serve.url, { path: '/readyz', headers: { Host: 'rebind.example' } })).status).toBe(403);
    const readyPost = await raw(serve.url, { method: 'POST', path: '/readyz' });
    expect([readyPost.status, readyPost.headers.allow]).toEqual([405, 'GET, HEAD']);
  }, 30_000);

  it('in a session, a body that is not JSON is 400 (-32700) and one over 4 MiB is 413; the session lives on', async () => {
    const init = await raw(serve.url, { method: 'POST', headers: MCP_POST, body: INITIALIZE });
    const session = {
      ...MCP_POST,
      'Mcp-Session-Id': String(init.headers['mcp-session-id']),
      'Mcp-Protocol-Version': '2025-11-25',
    };
    const post = (body: string) => raw(serve.url, { method: 'POST', headers: session, body });
    const error = (r: { body: string }) => (JSON.parse(r.body) as { error: object }).error;
    const notJson = await post('{"jsonrpc": "2.0", "id": 2, "method": "tools/list"');
    expect([notJson.status, error(notJson)]).toEqual([
      400,
      { code: -32700, message: 'Parse error: Invalid JSON' },
    ]);
    const huge = await post(
      JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'ping', params: { pad: 'x'.repeat(4 * 1024 * 1024) } }),
    );
    expect([huge.status, error(huge)]).toEqual([
      413,
      { code: -32000, message: 'Payload Too Large: Request body must not exceed 4194304 bytes' },
    ]);
    const initialized = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' });
    expect((await post(initialized)).status).toBe(202);
    const listed = await post(JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'tools/list' }));
    expect(listed.status).toBe(200);
    expect(listed.body).toContain('fx.echo');
  }, 30_000);

  it('answers a quick request alone as JSON, opens each SSE stream with an id and retry, and a dropped GET stream resumes with Last-Event-ID', async () => {
    const init = await raw(serve.url, { method: 'POST', headers: MCP_POST, body: INITIALIZE });
    expect(init.status).toBe(200);
    expect(init.headers['content-type']).toBe('application/json');
    expect(JSON.parse(init.body)).toMatchObject({ id: 1, result: { protocolVersion: '2025-11-25' } });
    const session = {
      'Mcp-Session-Id': String(init.headers['mcp-session-id']),
      'Mcp-Protocol-Version': '2025-11-25',
    };
    const initialized = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' });
    expect(
      (await raw(serve.url, { method: 'POST', headers: { ...MCP_POST, ...session }, body: initialized }))
        .status,
    ).toBe(202);
    // a call slower than the answer is waited for goes out as an event stream, primed for resumption
    const slow = JSON.stringify({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'fx.slow', arguments: { ms: 1_000 } },
    });
    const call = await sse(serve.url, { method: 'POST', headers: { ...MCP_POST, ...session }, body: slow });
    expect(call.headers['content-type']).toBe('text/event-stream');
    await until(() => (call.events.length >= 2 ? true : undefined), 10_000, 'the slow answer');
    expect(call.events[0]).toEqual({ id: expect.stringMatching(/^\d+$/), retry: '1000', data: '' });
    expect(JSON.parse(call.events[1]!.data)).toMatchObject({
      id: 2,
      result: { content: [{ text: 'done' }] },
    });
    const listening = { Accept: 'text/event-stream', ...session };
    const changed = (s: SseStream) =>
      s.events.filter((e) => e.data.includes('notifications/tools/list_changed'));
    const { client: other } = await httpClient(serve.url, clients);

    const get = await sse(serve.url, { headers: listening });
    expect(get.status).toBe(200);
    await other.callTool({ name: 'fx.change_tools', arguments: {} });
    const [seen] = await until(
      () => (changed(get).length > 0 ? changed(get) : undefined),
      10_000,
      'list_changed',
    );
    get.close();
    // Missed while disconnected, replayed on reconnect.
    await other.callTool({ name: 'fx.change_tools', arguments: {} });
    const resumed = await sse(serve.url, { headers: { ...listening, 'Last-Event-ID': seen!.id! } });
    expect(resumed.status).toBe(200);
    const [missed] = await until(
      () => (changed(resumed).length > 0 ? changed(resumed) : undefined),
      10_000,
      'the missed list_changed',
    );
    expect(Number(missed!.id)).toBeGreaterThan(Number(seen!.id));
    resumed.close();
    call.close();
  }, 30_000);

  it('/healthz shows ids and states only; SIGTERM drains, turns it 503, stops the fleet and exits 0', async () => {
    const health = await raw(serve.url, { path: '/healthz' });
    expect(health.status).toBe(200);
    const body = JSON.parse(health.body) as { status: string; servers: Array<Record<string, unknown>> };
    expect(body.status).toBe('ok');
    expect(body.servers.map((s) => [s.id, s.state])).toEqual([
      ['ev', 'ready'],
      ['fx', 'ready'],
      ['stubborn', 'ready'],
    ]);
    expect(Object.keys(body.servers[0]!).sort()).toEqual(['id', 'restarts', 'since', 'state']);
    const fxPid = Number(text(await first.callTool({ name: 'fx.pid', arguments: {} })));
    expect(alive(fxPid)).toBe(true);

    serve.proc.child.kill('SIGTERM');
    await until(
      async () => ((await raw(serve.url, { path: '/healthz' })).status === 503 ? true : undefined),
      5000,
      '/healthz at 503 while stopping',
    );
    const exit = await serve.proc.exited;
    expect(exit.code).toBe(0);
    expect(await allGone([fxPid], 3000)).toBe(true);
    await expect(raw(serve.url, { path: '/healthz' })).rejects.toThrow(/ECONNREFUSED/);
  }, 30_000);
});
