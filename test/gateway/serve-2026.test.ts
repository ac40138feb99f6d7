import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from '@modelcontextprotocol/client';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliProcesses, ensureBuilt } from '../cli/helpers.js';
import { type HttpServe, httpClient, MCP_POST, raw, startHttpServe } from './http/helpers.js';
import { connectV2 } from './serve-2026-helpers.js';
import { until, writeConfig } from './serve-helpers.js';

// One fleet config, two `serve --http` replicas over it, and 2025 and 2026 clients against them side by side.
const cli = cliProcesses();
const v1: Client[] = [];
const v2: ClientV2[] = [];
let config: string;
let a: HttpServe;
let b: HttpServe;

const MODERN = '2026-07-28';
const pinned = () =>
  new ClientV2({ name: 'modern-test', version: '1.0.0' }, { versionNegotiation: { mode: { pin: MODERN } } });
const text = (r: object) => ((r as { content?: Array<{ text?: string }> }).content ?? [])[0]?.text ?? '';

beforeAll(async () => {
  await ensureBuilt();
  ({ config } = writeConfig(cli.tempDir(), { fxFlags: ['--prompts', '1', '--resources', '1'] }));
  [a, b] = await Promise.all([startHttpServe(cli, config), startHttpServe(cli, config)]);
}, 120_000);

afterAll(async () => {
  await Promise.all([...v1, ...v2].splice(0).map((c) => c.close().catch(() => {})));
  await cli.reap();
});

/** A raw 2026 request: the envelope in `_meta` and the standard headers, each overridable. */
function modernPost(
  url: URL,
  method: string,
  params: Record<string, unknown>,
  headers: Record<string, string>,
) {
  const meta = {
    'io.modelcontextprotocol/protocolVersion': MODERN,
    'io.modelcontextprotocol/clientCapabilities': {},
    'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
  };
  const body = JSON.stringify({ jsonrpc: '2.0', id: 7, method, params: { ...params, _meta: meta } });
  return raw(url, {
    method: 'POST',
    headers: { ...MCP_POST, 'MCP-Protocol-Version': MODERN, 'Mcp-Method': method, ...headers },
    body,
  });
}

describe('serve answers both eras on one endpoint', () => {
  it('over HTTP: a pinned 2026 client discovers, lists in order, calls, reads and gets prompts beside a 2025 client', async () => {
    const { client: old } = await httpClient(a.url, v1);
    const modern = pinned();
    v2.push(modern);
    await modern.connect(new HttpV2(a.url));
    expect(modern.getServerVersion()?.name).toBe('mcp-supervisor');
    // server/discover tells a 2026 client what initialize tells a 2025 one, its tasks as the 2026 extension.
    expect(modern.getInstructions()).toMatch(/## ev/);
    expect(modern.getInstructions()).toBe(old.getInstructions());
    expect(Object.keys(modern.getServerCapabilities() ?? {}).sort()).toEqual(
      Object.keys(old.getServerCapabilities() ?? {})
        .map((k) => (k === 'tasks' ? 'extensions' : k))
        .sort(),
    );
    expect(modern.getServerCapabilities()?.extensions).toEqual({ 'io.modelcontextprotocol/tasks': {} });

    const [mine, theirs] = await Promise.all([modern.listTools(), old.listTools()]);
    const names = mine.tools.map((t) => t.name);
    expect(names).toEqual([...names].sort());
    expect(names).toEqual(theirs.tools.map((t) => t.name));
    expect(names).toEqual(expect.arrayContaining(['fx.echo', 'ev.echo']));

    const called = await modern.callTool({ name: 'fx.echo', arguments: { text: 'modern' } });
    expect(text(called)).toBe('modern');
    expect(text(await old.callTool({ name: 'fx.echo', arguments: { text: 'old' } }))).toBe('old');

    const { resources } = await modern.listResources();
    const fx = resources.find((r) => r.uri.includes('fixture'))!;
    const read = await modern.readResource({ uri: fx.uri });
    expect(read.contents.length).toBeGreaterThan(0);
    const { prompts } = await modern.listPrompts();
    expect(prompts.map((p) => p.name)).toContain('fx.prompt_1');
    const got = await modern.getPrompt({ name: 'fx.prompt_1', arguments: { topic: 'eras' } });
    expect(got.messages[0]?.content).toEqual({ type: 'text', text: 'prompt_1 about eras' });
  }, 30_000);

  it('over HTTP: two replicas answer alternate stateless requests of one 2026 client, with no session id', async () => {
    // Each request carries everything: the same question to either replica gets the same answer.
    for (const [i, url] of [a.url, b.url, a.url, b.url].entries()) {
      const r = await modernPost(
        url,
        'tools/call',
        { name: 'fx.echo', arguments: { text: `n${i}` } },
        {
          'Mcp-Name': 'fx.echo',
        },
      );
      expect(r.status).toBe(200);
      expect(r.headers['mcp-session-id']).toBeUndefined();
      expect(r.body).toContain(`"text":"n${i}"`);
    }
    // Discover answers the same on both, with no 2025-only tasks capability and the server info under _meta.
    const found = await Promise.all([a.url, b.url].map((u) => modernPost(u, 'server/discover', {}, {})));
    const discovered = found.map((r) => JSON.parse(/^data: (.*)$/m.exec(r.body)?.[1] ?? r.body).result);
    expect(discovered[0]).toEqual(discovered[1]);
    expect(discovered[0].supportedVersions).toContain(MODERN);
    expect(discovered[0].capabilities.tasks).toBeUndefined();
    expect(discovered[0]._meta['io.modelcontextprotocol/serverInfo'].name).toBe('mcp-supervisor');
    const listed = await Promise.all([a.url, b.url].map((u) => modernPost(u, 'tools/list', {}, {})));
    const names = listed.map((r) => [...r.body.matchAll(/"name":"([^"]+)"/g)].map((m) => m[1]).join(','));
    expect(names[0]).toBe(names[1]);
  }, 30_000);

  it('over HTTP: Mcp-Method or Mcp-Name disagreeing with the body is a 400 header mismatch', async () => {
    const wrongMethod = await modernPost(a.url, 'tools/list', {}, { 'Mcp-Method': 'prompts/list' });
    expect(wrongMethod.status).toBe(400);
    expect(JSON.parse(wrongMethod.body).error.code).toBe(-32020);
    // The header names the exposed, namespaced tool: the server's own name is not it.
    const ownName = await modernPost(
      a.url,
      'tools/call',
      { name: 'fx.echo', arguments: { text: 'x' } },
      {
        'Mcp-Name': 'echo',
      },
    );
    expect(ownName.status).toBe(400);
    expect(JSON.parse(ownName.body).error.code).toBe(-32020);
    const versionHeader = await modernPost(a.url, 'tools/list', {}, { 'MCP-Protocol-Version': '2025-11-25' });
    expect(versionHeader.status).toBe(400);
    expect(JSON.parse(versionHeader.body).error.code).toBe(-32020);
  });

  it('over HTTP: a 2026 request without its _meta is invalid params, and a 2025-only method is not found (404)', async () => {
    const bare = await raw(a.url, {
      method: 'POST',
      headers: { ...MCP_POST, 'MCP-Protocol-Version': MODERN, 'Mcp-Method': 'server/discover' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 101, method: 'server/discover', params: {} }),
    });
    expect(bare.status).toBe(400);
    expect(JSON.parse(bare.body)).toMatchObject({ id: 101, error: { code: -32602 } });
    for (const method of ['ping', 'initialize', 'logging/setLevel']) {
      const r = await modernPost(a.url, method, {}, {});
      expect(r.status, method).toBe(404);
      expect(JSON.parse(r.body), method).toMatchObject({ id: 7, error: { code: -32601 } });
    }
  });

  it('over HTTP: an unsupported 2026-style version gets the unsupported-version error listing the supported ones', async () => {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/list',
      params: {
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2099-01-01',
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    });
    const r = await raw(a.url, {
      method: 'POST',
      headers: { ...MCP_POST, 'MCP-Protocol-Version': '2099-01-01', 'Mcp-Method': 'tools/list' },
      body,
    });
    expect(r.status).toBe(400);
    const { error, id } = JSON.parse(r.body);
    expect(id).toBe(3);
    expect(error.code).toBe(-32022);
    expect(error.data).toEqual({ supported: [MODERN], requested: '2099-01-01' });
  });

  it('over stdio: a pinned 2026 client with no initialize starts the fleet, lists in order and calls', async () => {
    const modern = pinned();
    v2.push(modern);
    await connectV2(cli, modern, config);
    const { tools } = await modern.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual([...names].sort());
    expect(names).toEqual(expect.arrayContaining(['fx.echo', 'ev.echo']));
    expect(text(await modern.callTool({ name: 'fx.echo', arguments: { text: 'piped' } }))).toBe('piped');
    const { prompts } = await modern.listPrompts();
    expect(prompts.map((p) => p.name)).toContain('fx.prompt_1');
  }, 30_000);

  it('over stdio: a bad envelope, another version and a 2025-only method each get their 2026 error', async () => {
    const serve = cli.spawnCli(['serve', config, '--trust-all']);
    const meta = (m: Record<string, unknown>) => ({ params: { _meta: m } });
    const caps = { 'io.modelcontextprotocol/clientCapabilities': {} };
    const lines = [
      { id: 1, method: 'tools/list', ...meta(caps) },
      {
        id: 2,
        method: 'tools/list',
        ...meta({ ...caps, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' }),
      },
      { id: 3, method: 'ping', ...meta({ ...caps, 'io.modelcontextprotocol/protocolVersion': MODERN }) },
    ];
    for (const l of lines) serve.child.stdin!.write(`${JSON.stringify({ jsonrpc: '2.0', ...l })}\n`);
    await serve.waitFor(/"id":3/, 10_000, 'stdout');
    await serve.waitFor(/"id":2/, 10_000, 'stdout');
    await serve.waitFor(/"id":1/, 10_000, 'stdout');
    const answers = serve
      .stdout()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: number; error?: { code: number; data?: unknown } });
    const byId = new Map(answers.map((r) => [r.id, r]));
    expect(byId.get(1)?.error?.code).toBe(-32602);
    expect(byId.get(2)?.error).toMatchObject({
      code: -32022,
      data: { supported: [MODERN], requested: '2099-01-01' },
    });
    expect(byId.get(3)?.error?.code).toBe(-32601);
    serve.child.stdin!.end();
    expect((await serve.exited).code).toBe(0);
  }, 30_000);

  it('over stdio: a 2026 client hears of a changed tool list on its subscriptions/listen stream', async () => {
    const seen: string[][] = [];
    const modern = new ClientV2(
      { name: 'modern-test', version: '1.0.0' },
      {
        versionNegotiation: { mode: { pin: MODERN } },
        listChanged: { tools: { onChanged: (_err, tools) => seen.push((tools ?? []).map((t) => t.name)) } },
      },
    );
    v2.push(modern);
    await connectV2(cli, modern, config);
    expect(modern.autoOpenedSubscription).toBeDefined();
    expect((await modern.listTools()).tools.map((t) => t.name)).not.toContain('fx.added_1');
    expect(text(await modern.callTool({ name: 'fx.change_tools', arguments: {} }))).toBe('changed');
    await until(() => seen.some((names) => names.includes('fx.added_1')), 10_000, 'the changed list');
  }, 30_000);
});
