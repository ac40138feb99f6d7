import { afterEach, describe, expect, it } from 'vitest';
import { liveGroups } from '../../src/process/ledger.js';
import type { Supervisor } from '../../src/supervisor/supervisor.js';
import type { SupervisorEvent } from '../../src/supervisor/types.js';
import { eventually, fixtureServer, fleetConfig, fleets } from './fleet.js';

const f = fleets();
afterEach(async () => {
  await f.reap();
  expect(liveGroups()).toEqual([]);
});

const FLAGS = ['--resources', '1', '--prompts', '1'];

/** `a` and `b` expose their own names, so every name of theirs meets; `c` is namespaced as ever. */
async function ownNamedFleet() {
  const made = f.create(
    fleetConfig([
      fixtureServer('a', FLAGS, { namespace: false }),
      fixtureServer('b', FLAGS, { namespace: false }),
      fixtureServer('c', FLAGS),
    ]),
  );
  await made.sup.start();
  const told = () => new Set(collisions(made.events).map((c) => `${c.kind} ${c.name}`));
  const want = [
    'tool echo',
    'prompt prompt_1',
    'resource fixture://resource/1',
    'resource fixture://item/{id}',
  ];
  await eventually(() => want.every((w) => told().has(w)), 5000, "the notices of b's names");
  await eventually(() => made.sup.listPrompts().length === 4, 5000, 'the prompts of a and c');
  return made;
}

function collisions(events: SupervisorEvent[]) {
  return events.flatMap((e) =>
    e.type === 'notice' && e.code === 'NAME_COLLISION'
      ? [{ server: e.server, kind: e.kind, name: e.name, heldFor: e.heldFor }]
      : [],
  );
}

async function allUris(sup: Supervisor): Promise<string[]> {
  const uris: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 10; page++) {
    const listed = await sup.listResources(cursor === undefined ? {} : { cursor });
    if (!listed.ok) throw new Error(listed.message);
    uris.push(...listed.resources.map((r) => r.uri));
    cursor = listed.nextCursor;
    if (cursor === undefined) return uris;
  }
  throw new Error('listResources never ended');
}

function pidOf(sup: Supervisor, id: string): string {
  return String(sup.status().find((s) => s.id === id)?.pid);
}

describe('namespace: false', () => {
  it("exposes a server's tools, prompts and resources under their own names; a name taken first in config order is held back with a notice", async () => {
    const { sup, events } = await ownNamedFleet();
    const names = sup.listTools().map((t) => t.name);
    expect(names).toContain('echo');
    expect(names).toContain('c.echo');
    expect(sup.listTools().filter((t) => t.server === 'b')).toEqual([]);
    expect(await sup.callTool('pid')).toBe(pidOf(sup, 'a'));
    expect(await sup.callTool('c.pid')).toBe(pidOf(sup, 'c'));

    expect(sup.listPrompts().map((p) => [p.name, p.server])).toEqual([
      ['prompt_1', 'a'],
      ['odd name/with spaces', 'a'],
      ['c.prompt_1', 'c'],
      ['c.odd name/with spaces', 'c'],
    ]);
    const got = await sup.getPrompt('prompt_1', { topic: 'x' });
    expect(got).toMatchObject({ ok: true, server: 'a' });

    expect(await allUris(sup)).toEqual([
      'fixture://resource/1',
      'mcp-supervisor://c/fixture%3A%2F%2Fresource%2F1',
    ]);
    const read = await sup.readResource('fixture://resource/1');
    expect(read.ok && read.contents[0]).toMatchObject({
      text: `fixture://resource/1 from ${pidOf(sup, 'a')}`,
    });
    const templates = await sup.listResourceTemplates();
    expect(templates.ok && templates.resourceTemplates.map((t) => t.uriTemplate)).toEqual([
      'fixture://item/{id}',
      'mcp-supervisor://c/fixture%3A%2F%2Fitem%2F{id}',
    ]);

    const held = collisions(events);
    const b = (kind: string, name: string) => ({ server: 'b', kind, name, heldFor: 'a' });
    expect(held).toEqual(
      expect.arrayContaining([
        b('tool', 'echo'),
        b('prompt', 'prompt_1'),
        b('resource', 'fixture://resource/1'),
        b('resource', 'fixture://item/{id}'),
      ]),
    );
    // Each held name is told once, however often the lists are settled again.
    expect(new Set(held.map((h) => JSON.stringify(h))).size).toBe(held.length);
  });

  it('lets the held-back names through when their holder stops, with the events that say so', async () => {
    const { sup, events } = await ownNamedFleet();
    const from = events.length;
    expect(sup.stopServer('a')).toEqual({ ok: true });
    await eventually(
      () => sup.listTools().some((t) => t.name === 'echo' && t.server === 'b'),
      5000,
      "b's echo",
    );
    expect(await sup.callTool('pid')).toBe(pidOf(sup, 'b'));
    await eventually(() => sup.listPrompts().some((p) => p.name === 'prompt_1'), 5000, "b's prompt");
    expect(sup.listPrompts().find((p) => p.name === 'prompt_1')?.server).toBe('b');
    const later = events.slice(from);
    expect(later).toContainEqual(expect.objectContaining({ type: 'tools', server: 'b', removed: [] }));
    const added = later.find((e) => e.type === 'tools' && e.server === 'b');
    expect(added?.type === 'tools' && added.added).toContain('echo');
    expect(later).toContainEqual(
      expect.objectContaining({ type: 'prompts', server: 'b', added: expect.arrayContaining(['prompt_1']) }),
    );

    // Back again, the holder takes its names back, and the other's are held again, told anew.
    const again = events.length;
    expect(sup.startServer('a')).toEqual({ ok: true });
    await eventually(
      () => sup.listTools().some((t) => t.name === 'echo' && t.server === 'a'),
      5000,
      "a's echo",
    );
    expect(collisions(events.slice(again))).toContainEqual({
      server: 'b',
      kind: 'tool',
      name: 'echo',
      heldFor: 'a',
    });
    expect(await sup.callTool('pid')).toBe(pidOf(sup, 'a'));
  });
});
