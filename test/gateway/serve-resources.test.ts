import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  McpError,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { pidOf, writeFixtureConfig } from '../cli/helpers.js';
import { connect, directEverything, serveClients, until, writeConfig } from './serve-helpers.js';

const { cli, clients } = serveClients();

/** A client of `serve` that records every resources notification it gets. */
async function front(config: string) {
  const client = await connect(cli, clients, config);
  const updated: string[] = [];
  let listChanged = 0;
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, async (n) => {
    updated.push(n.params.uri);
  });
  client.setNotificationHandler(ResourceListChangedNotificationSchema, async () => {
    listChanged += 1;
  });
  return { client, updated, listChanged: () => listChanged };
}

async function rpcCodeOf(p: Promise<unknown>): Promise<number | undefined> {
  try {
    await p;
    return undefined;
  } catch (err) {
    return err instanceof McpError ? err.code : Number.NaN;
  }
}

/** The pid a fixture's pid file names now, if it can be read. */
function pidNow(file: string): number | undefined {
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { pid: number }).pid;
  } catch {
    return undefined;
  }
}

const text = (r: { contents: Array<Record<string, unknown>> }) => r.contents[0]?.text;

describe('serve: resources', () => {
  it('answers server-everything resources as a direct client gets them, and relays its updates', async () => {
    const { config } = writeConfig(cli.tempDir());
    const { client, updated } = await front(config);
    expect(client.getServerCapabilities()?.resources).toEqual({ subscribe: true, listChanged: true });
    const plain = await directEverything(cli, clients);
    const listed = await client.listResources();
    expect(listed).toEqual(await plain.listResources());
    expect(await client.listResourceTemplates()).toEqual(await plain.listResourceTemplates());
    const uri = listed.resources[0]!.uri;
    expect(await client.readResource({ uri })).toEqual(await plain.readResource({ uri }));

    await client.subscribeResource({ uri });
    // Turning the simulation on sends one update for each subscribed resource at once.
    await client.callTool({ name: 'ev.toggle-subscriber-updates', arguments: {} });
    await until(() => (updated.length > 0 ? true : undefined), 10_000, 'resources/updated');
    expect(updated[0]).toBe(uri);
    await client.unsubscribeResource({ uri });

    // Links in a tool result stay as the server gave them (nothing collides) and each one reads.
    const links = await client.callTool({ name: 'ev.get-resource-links', arguments: { count: 2 } });
    const linked = (links.content as Array<{ type: string; uri?: string }>).filter(
      (b) => b.type === 'resource_link',
    );
    expect(linked.map((b) => b.uri)).toEqual([
      'demo://resource/dynamic/blob/1',
      'demo://resource/dynamic/text/2',
    ]);
    for (const link of linked) {
      const read = await client.readResource({ uri: link.uri! });
      expect(read.contents[0]?.uri).toBe(link.uri);
    }
  }, 90_000);

  it('pages two servers with the same URIs, the later qualified, and keeps links, updates and reads on one server', async () => {
    const dir = cli.tempDir();
    const config = writeFixtureConfig(dir, [
      { id: 'a', flags: ['--resources', '2'] },
      { id: 'b', flags: ['--resources', '3', '--page-size', '2'] },
    ]);
    const { client, updated, listChanged } = await front(config);
    const uris: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listResources(cursor === undefined ? {} : { cursor });
      uris.push(...page.resources.map((r) => r.uri));
      cursor = page.nextCursor;
    } while (cursor !== undefined && uris.length < 20);
    const qualified = 'mcp-supervisor://b/fixture%3A%2F%2Fresource%2F1';
    expect(uris).toEqual([
      'fixture://resource/1',
      'fixture://resource/2',
      qualified,
      'mcp-supervisor://b/fixture%3A%2F%2Fresource%2F2',
      'fixture://resource/3',
    ]);
    const [a, b] = [await pidOf(dir, 'a'), await pidOf(dir, 'b')];
    expect(text(await client.readResource({ uri: 'fixture://resource/1' }))).toBe(
      `fixture://resource/1 from ${a}`,
    );
    expect(text(await client.readResource({ uri: qualified }))).toBe(`fixture://resource/1 from ${b}`);
    expect(await rpcCodeOf(client.readResource({ uri: 'fixture://resource/9' }))).toBe(-32002);

    // b's link to its own resource/1 names the qualified URI, which reads from b.
    const linked = await client.callTool({ name: 'b.link_resource', arguments: {} });
    const [link, embedded] = linked.content as Array<{
      type: string;
      uri?: string;
      resource?: { uri: string };
    }>;
    expect(link).toMatchObject({ type: 'resource_link', uri: qualified });
    expect(embedded).toMatchObject({ type: 'resource', resource: { uri: qualified } });
    const ownLink = await client.callTool({ name: 'a.link_resource', arguments: {} });
    expect(ownLink.content).toMatchObject([
      { uri: 'fixture://resource/1' },
      { resource: { uri: 'fixture://resource/1' } },
    ]);

    // Subscribed to b's copy only: a's update of the same URI goes nowhere, b's comes back under the qualified URI.
    await client.subscribeResource({ uri: qualified });
    await client.callTool({ name: 'a.touch_resource', arguments: { uri: 'fixture://resource/1' } });
    await client.callTool({ name: 'b.touch_resource', arguments: { uri: 'fixture://resource/1' } });
    await until(() => (updated.length > 0 ? true : undefined), 5000, 'resources/updated');
    expect(updated).toEqual([qualified]);

    // A server that dies and comes back: its resources went and came, and the client is told.
    const before = listChanged();
    process.kill(b, 'SIGKILL');
    await until(() => (listChanged() > before ? true : undefined), 10_000, 'resources/list_changed');
    const back = await until(
      () => {
        const pid = pidNow(join(dir, 'b.pid.json'));
        return pid !== b ? pid : undefined;
      },
      10_000,
      'b restarted',
    );
    await until(
      () => (listChanged() >= before + 2 ? true : undefined),
      10_000,
      'resources/list_changed once b is back',
    );
    expect(text(await client.readResource({ uri: qualified }))).toBe(`fixture://resource/1 from ${back}`);
  }, 90_000);

  it('declares no resources when no server offers them', async () => {
    const config = writeFixtureConfig(cli.tempDir(), [{ id: 'fx' }]);
    const { client } = await front(config);
    expect(client.getServerCapabilities()?.resources).toBeUndefined();
    expect(client.getServerCapabilities()?.tools).toEqual({ listChanged: true });
  }, 60_000);
});
