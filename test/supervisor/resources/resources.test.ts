import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, describe, expect, it } from 'vitest';
import { liveGroups } from '../../../src/process/ledger.js';
import type { ResourceUpdate } from '../../../src/supervisor/resources/outcome.js';
import type { Supervisor } from '../../../src/supervisor/supervisor.js';
import { eventually, fixtureServer, fleetConfig, fleets } from '../fleet.js';
import { readLog, tempDir } from '../helpers.js';

const EVERYTHING = createRequire(import.meta.url).resolve(
  '@modelcontextprotocol/server-everything/dist/index.js',
);
const SLOW = { startupMs: 15_000, callMs: 10_000, shutdownMs: 1000 };

const f = fleets();
const direct: Client[] = [];
const cleanups: Array<() => void> = [];
afterEach(async () => {
  await Promise.all(direct.splice(0).map((c) => c.close().catch(() => {})));
  await f.reap();
  for (const c of cleanups.splice(0)) c();
  expect(liveGroups()).toEqual([]);
});

async function directClient(): Promise<Client> {
  const client = new Client({ name: 'direct', version: '1.0.0' });
  direct.push(client);
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [EVERYTHING, 'stdio'], stderr: 'ignore' }),
  );
  return client;
}

/** Every page of the fleet's resources, and the cursors that led to them. */
async function allResources(sup: Supervisor) {
  const uris: string[] = [];
  const pages: number[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 20; i++) {
    const page = await sup.listResources(cursor === undefined ? {} : { cursor });
    if (!page.ok) throw new Error(`listResources failed: ${page.code} ${page.message}`);
    uris.push(...page.resources.map((r) => r.uri));
    pages.push(page.resources.length);
    cursor = page.nextCursor;
    if (cursor === undefined) return { uris, pages };
  }
  throw new Error('listResources never ended');
}

function pidOf(sup: Supervisor, id: string): number {
  return sup.status().find((s) => s.id === id)!.pid!;
}

/** Two fixtures with the same URIs: `a` first in config order, `b` listing by pages of two. */
async function collidingFleet() {
  const made = f.create(
    fleetConfig([
      fixtureServer('a', ['--resources', '2']),
      fixtureServer('plain'),
      fixtureServer('b', ['--resources', '3', '--page-size', '2']),
    ]),
  );
  await made.sup.start();
  return made;
}

describe('resources across the fleet', () => {
  it('lists, templates and reads server-everything as a direct client sees it', async () => {
    const { sup } = f.create(
      fleetConfig([
        fixtureServer('fx'),
        fixtureServer('ev', [], { args: [EVERYTHING, 'stdio'], timeouts: SLOW }),
      ]),
    );
    await sup.start();
    const client = await directClient();
    const { resources } = await client.listResources();
    const listed = await sup.listResources();
    expect(listed).toEqual({ ok: true, resources });
    const templates = await sup.listResourceTemplates();
    expect(templates).toEqual({ ok: true, ...(await client.listResourceTemplates()) });

    const uri = resources[0]!.uri;
    const read = await sup.readResource(uri);
    expect(read).toEqual({ ok: true, server: 'ev', ...(await client.readResource({ uri })) });
    const dynamic = await sup.readResource('demo://resource/dynamic/text/7');
    expect(dynamic.ok && dynamic.contents[0]).toMatchObject({ uri: 'demo://resource/dynamic/text/7' });

    // Only ev offers resources, so a URI it never listed is still its to answer (and to refuse).
    expect(await sup.readResource('nope://x')).toMatchObject({
      ok: false,
      code: 'REMOTE_ERROR',
      server: 'ev',
    });
    expect(await sup.readResource('mcp-supervisor://ghost/x')).toMatchObject({
      ok: false,
      code: 'UNKNOWN_RESOURCE',
    });
    expect(await sup.listResources({ cursor: 'not ours' })).toMatchObject({
      ok: false,
      code: 'INVALID_CURSOR',
    });
  }, 30_000);

  it('routes server-everything updates of a subscribed resource to its listener', async () => {
    const { sup } = f.create(
      fleetConfig([fixtureServer('ev', [], { args: [EVERYTHING, 'stdio'], timeouts: SLOW })]),
    );
    await sup.start();
    const uri = 'demo://resource/static/document/architecture.md';
    const heard: ResourceUpdate[] = [];
    const sub = await sup.subscribeResource(uri, (u) => heard.push(u));
    expect(sub).toMatchObject({ ok: true, server: 'ev' });
    // Turning the simulation on sends one update for each subscribed resource at once.
    const text = await sup.callTool('ev.toggle-subscriber-updates', {});
    expect(text).toMatch(/Started simulated resource updated/);
    await eventually(() => heard.length > 0, 5000, 'the first update');
    expect(heard[0]).toEqual({ uri, server: 'ev' });
    if (sub.ok) await sub.unsubscribe();
  }, 30_000);

  it('keeps a URI unique across the fleet as is and qualifies the later server of a collision, pages and all', async () => {
    const { sup } = await collidingFleet();
    const { uris, pages } = await allResources(sup);
    expect(uris).toEqual([
      'fixture://resource/1',
      'fixture://resource/2',
      'mcp-supervisor://b/fixture%3A%2F%2Fresource%2F1',
      'mcp-supervisor://b/fixture%3A%2F%2Fresource%2F2',
      'fixture://resource/3',
    ]);
    expect(pages).toEqual([2, 2, 1]);
    const text = async (uri: string) => {
      const read = await sup.readResource(uri);
      if (!read.ok) throw new Error(`${uri}: ${read.code} ${read.message}`);
      return { server: read.server, uri: read.contents[0]!.uri, text: read.contents[0]!.text };
    };
    const [a, b] = [pidOf(sup, 'a'), pidOf(sup, 'b')];
    expect(await text('fixture://resource/1')).toEqual({
      server: 'a',
      uri: 'fixture://resource/1',
      text: `fixture://resource/1 from ${a}`,
    });
    expect(await text(uris[2]!)).toEqual({
      server: 'b',
      uri: uris[2],
      text: `fixture://resource/1 from ${b}`,
    });
    expect(await text('fixture://resource/3')).toMatchObject({
      server: 'b',
      text: `fixture://resource/3 from ${b}`,
    });

    const templates = await sup.listResourceTemplates();
    expect(templates.ok && templates.resourceTemplates.map((t) => t.uriTemplate)).toEqual([
      'fixture://item/{id}',
      'mcp-supervisor://b/fixture%3A%2F%2Fitem%2F{id}',
    ]);
    expect(await text('fixture://item/x')).toMatchObject({ server: 'a', uri: 'fixture://item/x' });
    const fromB = 'mcp-supervisor://b/fixture%3A%2F%2Fitem%2F{id}'.replace('{id}', 'x');
    expect(await text(fromB)).toEqual({ server: 'b', uri: fromB, text: `fixture://item/x from ${b}` });
    expect(await sup.readResource('fixture://resource/9')).toMatchObject({
      ok: false,
      code: 'UNKNOWN_RESOURCE',
    });
    // A URI naming a server that offers no resources never reaches it.
    expect(await sup.readResource('mcp-supervisor://plain/x')).toMatchObject({
      ok: false,
      code: 'NOT_SUPPORTED',
      server: 'plain',
    });
    expect(await sup.readResource(42 as never)).toMatchObject({ ok: false, code: 'INVALID_CALL' });
  }, 30_000);

  it('routes resources/updated to the subscribers of that resource of that server only', async () => {
    const { sup } = await collidingFleet();
    const fromA: ResourceUpdate[] = [];
    const fromB: ResourceUpdate[] = [];
    const qualified = 'mcp-supervisor://b/fixture%3A%2F%2Fresource%2F1';
    const subA = await sup.subscribeResource('fixture://resource/1', (u) => fromA.push(u));
    const subB = await sup.subscribeResource(qualified, (u) => fromB.push(u));
    expect(subA).toMatchObject({ ok: true, server: 'a' });
    expect(subB).toMatchObject({ ok: true, server: 'b' });
    expect(await sup.callTool('b.touch_resource', { uri: 'fixture://resource/1' })).toBe(
      '["fixture://resource/1"]',
    );
    await eventually(() => fromB.length === 1, 3000, "b's update");
    // a's connection delivers in order: once resource/1 is heard, resource/2 (nobody's) was dropped before it.
    await sup.callTool('a.touch_resource', { uri: 'fixture://resource/2' });
    await sup.callTool('a.touch_resource', { uri: 'fixture://resource/1' });
    await eventually(() => fromA.length === 1, 3000, "a's update");
    expect(fromA).toEqual([{ uri: 'fixture://resource/1', server: 'a' }]);
    expect(fromB).toEqual([{ uri: qualified, server: 'b' }]);

    if (subA.ok) await subA.unsubscribe();
    if (subA.ok) await subA.unsubscribe();
    expect(await sup.callTool('a.touch_resource', { uri: 'x' })).toBe('[]');
    expect(await sup.subscribeResource('fixture://resource/1', 'no' as never)).toMatchObject({
      ok: false,
      code: 'INVALID_CALL',
    });
  }, 30_000);

  it('emits resources on list_changed and across a restart, and subscribes the restarted server again', async () => {
    const { sup, events } = await collidingFleet();
    const heard: ResourceUpdate[] = [];
    const sub = await sup.subscribeResource('fixture://resource/3', (u) => heard.push(u));
    expect(sub).toMatchObject({ ok: true, server: 'b' });
    const count = () => events.filter((e) => e.type === 'resources' && e.server === 'b').length;
    const before = count();
    expect(sup.restart('b')).toEqual({ ok: true });
    await eventually(() => count() >= before + 2, 10_000, "b's resources leaving and coming back");
    await eventually(() => sup.status().find((s) => s.id === 'b')?.state === 'ready', 5000, 'b ready');
    expect(await sup.callTool('b.touch_resource', { uri: 'fixture://resource/3' })).toBe(
      '["fixture://resource/3"]',
    );
    await eventually(() => heard.length === 1, 3000, 'the update after the restart');

    const beforeAdd = events.filter((e) => e.type === 'resources' && e.server === 'a').length;
    expect(await sup.callTool('a.add_resource', {})).toBe('fixture://resource/3');
    await eventually(
      () => events.filter((e) => e.type === 'resources' && e.server === 'a').length > beforeAdd,
      3000,
      "a's list_changed",
    );
    // Now a lists resource/3 too, so b's copy is the later one of a collision.
    const { uris } = await allResources(sup);
    expect(uris).toContain('mcp-supervisor://b/fixture%3A%2F%2Fresource%2F3');
    expect(uris.filter((u) => u === 'fixture://resource/3')).toHaveLength(1);
  }, 30_000);
});

describe('resources of a server that is down', () => {
  it('still route to it and hold their form, so no other URI changes while it is away', async () => {
    const { sup } = await collidingFleet();
    // The forms are given once both servers were listed: a's catalog is read after it is ready, so a stop that
    // came first would leave no form to hold.
    const qualified = 'mcp-supervisor://b/fixture%3A%2F%2Fresource%2F1';
    for (const end = Date.now() + 5000; !(await allResources(sup)).uris.includes(qualified); ) {
      if (Date.now() > end) throw new Error("timed out waiting for b's copies of a's URIs to be qualified");
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(sup.stopServer('a')).toEqual({ ok: true });
    await eventually(() => sup.status().find((s) => s.id === 'a')?.state === 'stopped', 5000, 'a stopped');
    // Only b is listed now, and its copies of a's URIs keep the qualified form they had.
    expect((await allResources(sup)).uris).toEqual([
      'mcp-supervisor://b/fixture%3A%2F%2Fresource%2F1',
      'mcp-supervisor://b/fixture%3A%2F%2Fresource%2F2',
      'fixture://resource/3',
    ]);
    const templates = await sup.listResourceTemplates();
    expect(templates.ok && templates.resourceTemplates.map((t) => t.uriTemplate)).toEqual([
      'mcp-supervisor://b/fixture%3A%2F%2Fitem%2F{id}',
    ]);
    expect(await sup.readResource('fixture://resource/1')).toMatchObject({
      ok: false,
      code: 'SERVER_DOWN',
      server: 'a',
    });
    // Started again, the same URI reads from it: a read waits for its server to be ready, as a call does.
    expect(sup.startServer('a')).toEqual({ ok: true });
    const read = await sup.readResource('fixture://resource/1');
    expect(read.ok && read.server).toBe('a');
  }, 30_000);
});

describe('resource subscriptions shared by several listeners', () => {
  it('asks the server once, lets listeners that join meanwhile share its refusal, and unsubscribes after the last', async () => {
    const dir = tempDir();
    cleanups.push(dir.cleanup);
    const log = join(dir.dir, 'a.log');
    const { sup } = f.create(fleetConfig([fixtureServer('a', ['--resources', '1', `--log=${log}`])]));
    await sup.start();
    const methods = () =>
      readLog(log)
        .map((m) => m.method)
        .filter((m) => String(m).startsWith('resources/'));

    const unknown = 'mcp-supervisor://a/fixture%3A%2F%2Fnothing';
    const refused = await Promise.all([
      sup.subscribeResource(unknown, () => {}),
      sup.subscribeResource(unknown, () => {}),
    ]);
    expect(refused).toMatchObject([
      { ok: false, code: 'UNKNOWN_RESOURCE', uri: unknown, server: 'a' },
      { ok: false, code: 'UNKNOWN_RESOURCE', uri: unknown, server: 'a' },
    ]);

    const uri = 'fixture://resource/1';
    const subs = await Promise.all([
      sup.subscribeResource(uri, () => {}),
      sup.subscribeResource(uri, () => {}),
    ]);
    expect(subs).toMatchObject([{ ok: true }, { ok: true }]);
    for (const s of subs) if (s.ok) await s.unsubscribe();
    // Once the fixture says nothing is subscribed, the unsubscribe was its last resources/* message.
    expect(await sup.callTool('a.touch_resource', { uri })).toBe('[]');
    expect(methods().filter((m) => m !== 'resources/list' && m !== 'resources/templates/list')).toEqual([
      'resources/subscribe',
      'resources/subscribe',
      'resources/unsubscribe',
    ]);
  }, 30_000);
});
