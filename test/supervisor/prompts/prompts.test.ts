import { createRequire } from 'node:module';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, describe, expect, it } from 'vitest';
import { liveGroups } from '../../../src/process/ledger.js';
import type { SupervisorEvent } from '../../../src/supervisor/types.js';
import { eventually, fixtureServer, fleetConfig, fleets } from '../fleet.js';

const EVERYTHING = createRequire(import.meta.url).resolve(
  '@modelcontextprotocol/server-everything/dist/index.js',
);
const SLOW = { startupMs: 15_000, callMs: 10_000, shutdownMs: 1000 };

const f = fleets();
const direct: Client[] = [];
afterEach(async () => {
  await Promise.all(direct.splice(0).map((c) => c.close().catch(() => {})));
  await f.reap();
  expect(liveGroups()).toEqual([]);
});

function everything(id = 'ev') {
  return fixtureServer(id, [], { args: [EVERYTHING, 'stdio'], timeouts: SLOW });
}

/** The same server, reached without the supervisor: what every answer is compared with. */
async function directClient(): Promise<Client> {
  const client = new Client({ name: 'direct', version: '1.0.0' });
  direct.push(client);
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [EVERYTHING, 'stdio'], stderr: 'ignore' }),
  );
  return client;
}

async function fleetWithEverything() {
  const made = f.create(fleetConfig([everything(), fixtureServer('fx')]));
  await made.sup.start();
  await eventually(() => made.sup.listPrompts().length > 0, 10_000, 'the prompts of ev');
  return made;
}

describe('prompts across the fleet', () => {
  it('lists each server prompt under its namespaced name with its definition as the server gives it', async () => {
    const { sup, events } = await fleetWithEverything();
    const { prompts } = await (await directClient()).listPrompts();
    const listed = sup.listPrompts();
    expect(listed.map((p) => p.name)).toEqual(prompts.map((p) => `ev.${p.name}`));
    expect(listed.map((p) => p.definition)).toEqual(prompts);
    expect(listed.every((p) => p.server === 'ev')).toBe(true);
    const added = events.find((e) => e.type === 'prompts');
    expect(added).toMatchObject({ server: 'ev', added: prompts.map((p) => `ev.${p.name}`), removed: [] });
  });

  it('gets a prompt with arguments exactly as direct access does; an unknown name is UNKNOWN_PROMPT', async () => {
    const { sup } = await fleetWithEverything();
    const client = await directClient();
    const args = { city: 'Lisbon', state: 'Lx' };
    const out = await sup.getPrompt('ev.args-prompt', args);
    const want = await client.getPrompt({ name: 'args-prompt', arguments: args });
    expect(out).toEqual({ ok: true, server: 'ev', result: want });
    const unknown = await sup.getPrompt('ev.no-such-prompt');
    expect(unknown).toMatchObject({ ok: false, code: 'UNKNOWN_PROMPT' });
    // MCP prompt arguments are strings; anything else is refused before any server sees it.
    const notStrings = await sup.getPrompt('ev.args-prompt', { city: 7 } as never);
    expect(notStrings).toMatchObject({ ok: false, code: 'INVALID_CALL' });
    const fromFixture = await sup.getPrompt('fx.echo');
    expect(fromFixture).toMatchObject({ ok: false, code: 'UNKNOWN_PROMPT' });
  });

  it("a server's own refusal of prompts/get is REMOTE_ERROR with its rpc code, never a rejection", async () => {
    const { sup } = await fleetWithEverything();
    const out = await sup.getPrompt('ev.args-prompt', {});
    expect(out).toMatchObject({ ok: false, code: 'REMOTE_ERROR', server: 'ev', rpcCode: -32602 });
  });

  it('a restart takes the prompts out with a prompts event and brings them back with another', async () => {
    const { sup, events } = await fleetWithEverything();
    const names = sup.listPrompts().map((p) => p.name);
    const before = events.length;
    expect(sup.restart('ev')).toEqual({ ok: true });
    const promptEvents = () =>
      events.slice(before).filter((e) => e.type === 'prompts') as Extract<
        SupervisorEvent,
        { type: 'prompts' }
      >[];
    await eventually(() => promptEvents().length >= 2, 15_000, 'prompts gone and back');
    expect(promptEvents().map((e) => [e.added, e.removed])).toEqual([
      [[], names],
      [names, []],
    ]);
    expect(sup.listPrompts().map((p) => p.name)).toEqual(names);
  });
});

describe('prompts of the fixture', () => {
  it('two servers with the same prompt names each keep theirs; an odd name routes by the map', async () => {
    const { sup } = f.create(
      fleetConfig([fixtureServer('a', ['--prompts', '1']), fixtureServer('b', ['--prompts', '1'])]),
    );
    await sup.start();
    await eventually(() => sup.listPrompts().length === 4, 5000, 'four prompts');
    const listed = sup.listPrompts();
    expect(listed.map((p) => [p.server, p.prompt])).toEqual([
      ['a', 'prompt_1'],
      ['a', 'odd name/with spaces'],
      ['b', 'prompt_1'],
      ['b', 'odd name/with spaces'],
    ]);
    expect(listed[0]!.name).toBe('a.prompt_1');
    expect(listed[2]!.name).toBe('b.prompt_1');
    const odd = listed[3]!;
    // Named as a tool would be: under `.` the join stays plain, since it splits back at its first separator.
    expect(odd.name).toBe('b.odd name/with spaces');
    expect(new Set(listed.map((p) => p.name)).size).toBe(4);
    expect(odd.definition).toMatchObject({
      name: 'odd name/with spaces',
      title: 'Title of odd name/with spaces',
    });
    const got = await sup.getPrompt(odd.name, { topic: 'routing' });
    expect(got).toEqual({
      ok: true,
      server: 'b',
      result: {
        description: "the fixture's odd name/with spaces",
        messages: [{ role: 'user', content: { type: 'text', text: 'odd name/with spaces about routing' } }],
      },
    });
  });

  it('under the LLM-safe separator an odd name is hashed, and still routes', async () => {
    const { sup } = f.create(fleetConfig([fixtureServer('a', ['--prompts', '1'])], { separator: '__' }));
    await sup.start();
    await eventually(() => sup.listPrompts().length === 2, 5000, 'two prompts');
    const odd = sup.listPrompts()[1]!;
    expect(odd.name).toMatch(/^a__odd_name_with_spaces-[0-9a-f]{8}$/);
    const got = await sup.getPrompt(odd.name, { topic: 't' });
    expect(got).toMatchObject({ ok: true, server: 'a' });
  });

  it("a server's prompts/list_changed is read again and reported as a prompts event", async () => {
    const { sup, events } = f.create(
      fleetConfig([fixtureServer('a', ['--prompts', '1', '--prompts-changed-after', '100'])]),
    );
    await sup.start();
    await eventually(
      () => sup.listPrompts().some((p) => p.prompt === 'added_prompt'),
      5000,
      'the added prompt',
    );
    const last = events.filter((e) => e.type === 'prompts').at(-1);
    expect(last).toMatchObject({ server: 'a', added: ['a.added_prompt'], removed: [] });
    const got = await sup.getPrompt('a.added_prompt', { topic: 'x' });
    expect(got.ok && got.result.messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'added_prompt about x' } },
    ]);
  });
});

describe('completion across the fleet', () => {
  it('completes a prompt argument by the exposed prompt name, context included, as direct access does', async () => {
    const { sup } = await fleetWithEverything();
    const client = await directClient();
    const ref = { type: 'ref/prompt', name: 'completable-prompt' } as const;
    const first = await sup.complete(
      { type: 'ref/prompt', name: 'ev.completable-prompt' },
      { name: 'department', value: 'S' },
    );
    expect(first).toEqual({
      ok: true,
      server: 'ev',
      result: await client.complete({ ref, argument: { name: 'department', value: 'S' } }),
    });
    expect(first.ok && first.result.completion.values).toEqual(['Sales', 'Support']);
    const context = { arguments: { department: 'Sales' } };
    const second = await sup.complete(
      { type: 'ref/prompt', name: 'ev.completable-prompt' },
      { name: 'name', value: 'E' },
      context,
    );
    expect(second.ok && second.result.completion.values).toEqual(['Eve']);
  });

  it('completes a resource template argument at the server that lists the template', async () => {
    const { sup } = await fleetWithEverything();
    const client = await directClient();
    const { resourceTemplates } = await client.listResourceTemplates();
    const uri = resourceTemplates[0]!.uriTemplate;
    const argument = { name: 'resourceId', value: '7' };
    const out = await sup.complete({ type: 'ref/resource', uri }, argument);
    const want = await client.complete({ ref: { type: 'ref/resource', uri }, argument });
    expect(out).toEqual({ ok: true, server: 'ev', result: want });
    expect(want.completion.values).toEqual(['7']);
  });

  it("a template renamed for a collision is completed at the server it names, in that server's form", async () => {
    const { sup } = f.create(fleetConfig([everything('ev'), everything('ev2')]));
    await sup.start();
    const listed = await sup.listResourceTemplates();
    if (!listed.ok) throw new Error(listed.message);
    const uris = listed.resourceTemplates.map((t) => t.uriTemplate);
    // Both list the same templates: the second server's are renamed into the fleet's scheme.
    const renamed = uris.find((u) => u.startsWith('mcp-supervisor://ev2/'));
    expect(renamed).toBeDefined();
    const argument = { name: 'resourceId', value: '5' };
    const viaRenamed = await sup.complete({ type: 'ref/resource', uri: renamed! }, argument);
    expect(viaRenamed).toMatchObject({ ok: true, server: 'ev2', result: { completion: { values: ['5'] } } });
    const plain = uris.find((u) => !u.startsWith('mcp-supervisor:'))!;
    const viaPlain = await sup.complete({ type: 'ref/resource', uri: plain }, argument);
    expect(viaPlain).toMatchObject({ ok: true, server: 'ev' });
  });

  it('an unknown reference is UNKNOWN_REF; a malformed one INVALID_CALL', async () => {
    const { sup } = await fleetWithEverything();
    const prompt = await sup.complete({ type: 'ref/prompt', name: 'fx.nothing' }, { name: 'a', value: '' });
    expect(prompt).toMatchObject({ ok: false, code: 'UNKNOWN_REF' });
    const resource = await sup.complete(
      { type: 'ref/resource', uri: 'nowhere://{x}' },
      { name: 'x', value: '' },
    );
    expect(resource).toMatchObject({ ok: false, code: 'UNKNOWN_REF' });
    const bad = await sup.complete({ type: 'ref/other' } as never, { name: 'x', value: '' });
    expect(bad).toMatchObject({ ok: false, code: 'INVALID_CALL' });
  });
});

describe('logging across the fleet', () => {
  it('sets the level on every server that declares logging and emits its messages as log events', async () => {
    const { sup, events } = await fleetWithEverything();
    const set = await sup.setLogLevel('debug');
    // The fixture declares no logging: only ev is told.
    expect(set).toEqual({ ok: true, servers: ['ev'], failed: [] });
    const toggled = await sup.callTool('ev.toggle-simulated-logging', {});
    expect(toggled).toMatch(/Started simulated/);
    await eventually(() => events.some((e) => e.type === 'log'), 8000, 'a log event');
    const log = events.find((e) => e.type === 'log') as Extract<SupervisorEvent, { type: 'log' }>;
    expect(log.server).toBe('ev');
    expect(log.data).toMatch(/-level message|level-message/);
    expect(['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency']).toContain(
      log.level,
    );
  });

  it('a level above every message the server sends keeps them away; a malformed level is INVALID_CALL', async () => {
    const { sup } = await fleetWithEverything();
    expect(await sup.setLogLevel('loud' as never)).toMatchObject({ ok: false, code: 'INVALID_CALL' });
    expect(await sup.setLogLevel('emergency')).toEqual({ ok: true, servers: ['ev'], failed: [] });
  });
});

describe('logging of the fixture', () => {
  it('tells a server that starts later the level set before, without being asked again', async () => {
    const { sup, events } = f.create(
      fleetConfig([fixtureServer('fx', ['--logging']), fixtureServer('quiet')]),
    );
    await sup.start();
    expect(await sup.setLogLevel('warning')).toEqual({ ok: true, servers: ['fx'], failed: [] });
    const logs = () => events.filter((e) => e.type === 'log') as Extract<SupervisorEvent, { type: 'log' }>[];
    await eventually(() => logs().length === 1, 5000, 'the first log message');
    const firstPid = sup.status()[0]!.pid;
    expect(logs()[0]).toMatchObject({ server: 'fx', level: 'warning', logger: 'fixture' });
    expect(logs()[0]!.data).toBe(`level set to warning in ${firstPid}`);
    expect(sup.restart('fx')).toEqual({ ok: true });
    await eventually(() => logs().length === 2, 10_000, 'the level told to the restarted server');
    const secondPid = sup.status()[0]!.pid;
    expect(secondPid).not.toBe(firstPid);
    expect(logs()[1]!.data).toBe(`level set to warning in ${secondPid}`);
  });
});

describe('stderr lines as events', () => {
  it('each stderr line of a server is a stderr event with its server', async () => {
    const { sup, events } = f.create(fleetConfig([fixtureServer('fx', ['--stderr-spam', '5'])]));
    await sup.start();
    await eventually(
      () => events.filter((e) => e.type === 'stderr' && e.server === 'fx').length >= 5,
      5000,
      'five stderr lines',
    );
    const lines = events.filter((e) => e.type === 'stderr') as Extract<SupervisorEvent, { type: 'stderr' }>[];
    expect(lines.every((l) => !l.line.includes('\n') && l.dropped === 0)).toBe(true);
  });

  it('a flood of stderr lines is cut to the rate, while the exit still carries the tail', async () => {
    const began = Date.now();
    const { sup, events } = f.create(fleetConfig([fixtureServer('fx', ['--stderr-spam', '3000'])]));
    await sup.start();
    sup.stopServer('fx');
    await eventually(() => events.some((e) => e.type === 'exit'), 5000, 'the exit');
    const seconds = (Date.now() - began) / 1000;
    const lines = events.filter((e) => e.type === 'stderr');
    // The burst (200) plus the rate (50/s) over the whole test: far below the 3000 lines written.
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.length).toBeLessThanOrEqual(200 + Math.ceil(50 * seconds) + 1);
    const exit = events.find((e) => e.type === 'exit') as Extract<SupervisorEvent, { type: 'exit' }>;
    expect(exit.stderrTail).toMatch(/lines skipped/);
  });
});
