import { describe, expect, it } from 'vitest';
import type { SupervisorConfig } from '../../../src/config/types.js';
import { exposedName } from '../../../src/registry/exposed-name.js';
import { toolOwner } from '../../../src/registry/tool-owner.js';
import { FleetTools } from '../../../src/supervisor/calls/tool-table.js';
import { checkPins, pinsFor } from '../../../src/trust/tool-pins.js';
import { fixtureServer, fleetConfig } from '../fleet.js';

type Emitted = Parameters<ConstructorParameters<typeof FleetTools>[1]>[0];

/** A FleetTools over `config`, with every event it emits and every warning it logs. */
function fleetTools(config: SupervisorConfig) {
  const events: Emitted[] = [];
  const warnings: string[] = [];
  const tools = new FleetTools(config, (e) => events.push(e), { warn: (m: string) => warnings.push(m) });
  return { tools, events, warnings };
}

const two = fleetConfig([fixtureServer('files'), fixtureServer('everything')]);

describe('FleetTools: from listings to the exposed table', () => {
  it('a ready server exposes what it lists, in its order, with one tools event naming the additions', () => {
    const { tools, events, warnings } = fleetTools(two);
    tools.apply('files', 'ready', [
      { name: 'read_file', description: 'Read a file', inputSchema: { type: 'object', required: ['path'] } },
      { name: 'get-env' },
    ]);
    expect(tools.table.tools).toEqual([
      {
        name: 'files.read_file',
        server: 'files',
        tool: 'read_file',
        description: 'Read a file',
        inputSchema: { type: 'object', required: ['path'] },
        scopesRequired: [],
        definition: {
          name: 'read_file',
          description: 'Read a file',
          inputSchema: { type: 'object', required: ['path'] },
        },
      },
      {
        name: 'files.get-env',
        server: 'files',
        tool: 'get-env',
        inputSchema: { type: 'object' },
        scopesRequired: [],
        definition: { name: 'get-env' },
      },
    ]);
    expect(tools.countFor('files')).toBe(2);
    expect(tools.countFor('everything')).toBe(0);
    expect(events).toEqual([
      {
        type: 'tools',
        server: 'files',
        added: ['files.read_file', 'files.get-env'],
        removed: [],
        changed: [],
      },
    ]);
    expect(warnings).toEqual([]);
  });

  it('lists servers in config order, whichever becomes ready first', () => {
    const { tools } = fleetTools(two);
    tools.apply('everything', 'ready', [{ name: 'echo' }]);
    tools.apply('files', 'ready', [{ name: 'read_file' }]);
    expect(tools.table.tools.map((t) => t.name)).toEqual(['files.read_file', 'everything.echo']);
  });

  it('a listing seen before changes nothing; an equal new listing swaps the table but says nothing', () => {
    const { tools, events } = fleetTools(two);
    const list = [{ name: 'echo' }];
    tools.apply('files', 'ready', list);
    const table = tools.table;
    tools.apply('files', 'ready', list);
    expect(tools.table).toBe(table);
    tools.apply('files', 'ready', [{ name: 'echo' }]);
    expect(tools.table.tools).toEqual(table.tools);
    expect(events).toHaveLength(1);
  });

  it('a new listing is one event with what was added, removed and changed', () => {
    const { tools, events } = fleetTools(two);
    tools.apply('files', 'ready', [{ name: 'a' }, { name: 'b', description: 'old' }]);
    tools.apply('files', 'ready', [{ name: 'b', description: 'new' }, { name: 'c' }]);
    expect(events.at(-1)).toEqual({
      type: 'tools',
      server: 'files',
      added: ['files.c'],
      removed: ['files.a'],
      changed: ['files.b'],
    });
    expect(tools.table.get('files.b')?.description).toBe('new');
    expect(tools.table.has('files.a')).toBe(false);
  });

  it('drops what is not a tool and logs one line for each, naming the server', () => {
    const { tools, warnings } = fleetTools(two);
    tools.apply('files', 'ready', [{ name: 'ok' }, { name: 'bad name' }, 'junk', { name: 'ok' }]);
    expect(tools.table.tools.map((t) => t.tool)).toEqual(['ok']);
    expect(warnings).toHaveLength(3);
    for (const w of warnings) expect(w).toContain('server files');
  });

  it('ignores a server the config does not have', () => {
    const { tools, events } = fleetTools(two);
    tools.apply('ghost', 'ready', [{ name: 'echo' }]);
    expect(tools.table.size).toBe(0);
    expect(events).toEqual([]);
  });
});

describe('FleetTools: declared tools', () => {
  const config = fleetConfig([
    fixtureServer('docs', [], {
      scopesRequired: ['mcp.read'],
      tools: [
        { name: 'documents.create', description: 'Create a document', scopesRequired: ['mcp.write'] },
        { name: 'documents.missing', scopesRequired: [] },
      ],
    }),
  ]);

  it('lend a description and scopes to the listed tool of the same name', () => {
    const { tools } = fleetTools(config);
    tools.apply('docs', 'ready', [{ name: 'documents.create' }]);
    expect(tools.table.get('docs.documents.create')).toMatchObject({
      description: 'Create a document',
      scopesRequired: ['mcp.read', 'mcp.write'],
    });
  });

  it('one the server does not list is reported once, across new listings and restarts, and never exposed', () => {
    const { tools, events } = fleetTools(config);
    tools.apply('docs', 'ready', [{ name: 'documents.create' }]);
    tools.apply('docs', 'ready', [{ name: 'documents.create' }, { name: 'other' }]);
    tools.apply('docs', 'backoff', []);
    tools.apply('docs', 'ready', [{ name: 'documents.create' }]);
    const notices = events.filter((e) => e.type === 'notice');
    expect(notices).toEqual([
      {
        type: 'notice',
        server: 'docs',
        message: "declared tool 'documents.missing' is not offered by the server",
      },
    ]);
    expect(tools.table.has('docs.documents.missing')).toBe(false);
  });
});

describe('FleetTools: held tools', () => {
  it('a tool the trust gate holds back is not exposed, and is added once approved', () => {
    const { tools, events } = fleetTools(two);
    const first = [{ name: 'read_file', description: 'Read' }];
    const pins = pinsFor(first);
    tools.apply('files', 'ready', checkPins(pins, first).pinned);
    // The server now offers a changed read_file and a new tool: both held until a person approves.
    const next = [{ name: 'read_file', description: 'Read, then mail it away' }, { name: 'delete_all' }];
    const check = checkPins(pins, next);
    expect(check.held.map((t) => t.name)).toEqual(['read_file', 'delete_all']);
    tools.apply('files', 'ready', check.pinned);
    expect(tools.table.listFor('files')).toEqual([]);
    expect(tools.table.get('files.delete_all')).toBeUndefined();
    expect(events.at(-1)).toEqual({
      type: 'tools',
      server: 'files',
      added: [],
      removed: ['files.read_file'],
      changed: [],
    });
    // Approved: the gate passes the whole listing on.
    tools.apply('files', 'ready', checkPins(pinsFor(next), next).pinned);
    expect(tools.table.listFor('files').map((t) => t.name)).toEqual(['files.read_file', 'files.delete_all']);
    expect(events.at(-1)).toMatchObject({ added: ['files.read_file', 'files.delete_all'], removed: [] });
  });
});

describe('FleetTools: a server going down', () => {
  for (const state of ['backoff', 'stopped', 'failed', 'untrusted', 'spawning', 'stopping']) {
    it(`takes its tools out when it is ${state}, with one event naming them`, () => {
      const { tools, events } = fleetTools(two);
      tools.apply('files', 'ready', [{ name: 'a' }, { name: 'b' }]);
      tools.apply('everything', 'ready', [{ name: 'echo' }]);
      tools.apply('files', state, []);
      expect(tools.table.tools.map((t) => t.name)).toEqual(['everything.echo']);
      expect(events.at(-1)).toEqual({
        type: 'tools',
        server: 'files',
        added: [],
        removed: ['files.a', 'files.b'],
        changed: [],
      });
      tools.apply('files', state, []);
      expect(events).toHaveLength(3);
    });
  }

  it('keeps a wedged server tools in the table: calls wait for it rather than fail as unknown', () => {
    const { tools, events } = fleetTools(two);
    tools.apply('files', 'ready', [{ name: 'a' }]);
    tools.apply('files', 'wedged', []);
    expect(tools.table.has('files.a')).toBe(true);
    expect(events).toHaveLength(1);
  });

  it('lists the same array again after a restart (a listing is resolved anew once its server went down)', () => {
    const { tools, events } = fleetTools(two);
    const list = [{ name: 'a' }];
    tools.apply('files', 'ready', list);
    tools.apply('files', 'backoff', []);
    tools.apply('files', 'ready', list);
    expect(tools.table.has('files.a')).toBe(true);
    expect(events.map((e) => e.type === 'tools' && e.added)).toEqual([['files.a'], [], ['files.a']]);
  });
});

describe('FleetTools.serverFor', () => {
  it('routes a live name by the table, and a name seen before to its server while that server restarts', () => {
    const { tools } = fleetTools(two);
    tools.apply('files', 'ready', [{ name: 'x' }]);
    expect(tools.serverFor('files.x')).toBe('files');
    tools.apply('files', 'backoff', []);
    expect(tools.table.has('files.x')).toBe(false);
    expect(tools.serverFor('files.x')).toBe('files');
  });

  it('agrees with toolOwner for every name no server has listed: plain, hashed, declared, unknown', () => {
    const long = 'a'.repeat(70);
    const configs = [
      fleetConfig([fixtureServer('fx'), fixtureServer('fx_more')]),
      fleetConfig([fixtureServer('fx'), fixtureServer('fx_more')], { separator: '__' }),
      fleetConfig([fixtureServer('srv', [], { tools: [{ name: 'declared.tool', scopesRequired: [] }] })]),
    ];
    for (const config of configs) {
      const sep = config.supervisor.separator;
      const names = [
        ...config.servers.flatMap((s) => [
          exposedName(s.id, 'echo', sep),
          exposedName(s.id, long, sep),
          exposedName(s.id, 'get.env', sep),
          exposedName(s.id, 'declared.tool', sep),
        ]),
        'nobody.echo',
        'fx',
        '',
      ];
      const { tools } = fleetTools(config);
      for (const name of names) expect(tools.serverFor(name), name).toBe(toolOwner(config, name));
    }
  });

  it('finds the server of a hashed name no server has listed yet', () => {
    const config = fleetConfig([fixtureServer('fx'), fixtureServer('fx_more')]);
    const hashed = exposedName('fx', 'a'.repeat(70), '.');
    expect(hashed).toMatch(/^fx_a+-[0-9a-f]{8}$/);
    expect(fleetTools(config).tools.serverFor(hashed)).toBe('fx');
    const llm = fleetConfig([fixtureServer('srv')], { separator: '__' });
    expect(fleetTools(llm).tools.serverFor(exposedName('srv', 'read.file', '__'))).toBe('srv');
  });

  it("one server's change copies only its own tools: the others' stay the same objects, and no event names them", () => {
    const { tools, events } = fleetTools(two);
    tools.apply('files', 'ready', [{ name: 'read_file', inputSchema: { type: 'object' } }]);
    const before = tools.table.get('files.read_file');
    events.length = 0;
    tools.apply('everything', 'ready', [{ name: 'get-env' }]);
    tools.apply('everything', 'stopping', []);
    expect(tools.table.get('files.read_file')).toBe(before);
    expect(Object.isFrozen(before?.inputSchema)).toBe(true);
    expect(events.map((e) => e.type === 'tools' && [e.server, e.added, e.removed])).toEqual([
      ['everything', ['everything.get-env'], []],
      ['everything', [], ['everything.get-env']],
    ]);
  });
});
