import { describe, expect, it } from 'vitest';
import { exposedNameFor } from '../../src/registry/exposed-name.js';
import { settleNames } from '../../src/registry/name-claims.js';
import { RouteTable } from '../../src/registry/route-table.js';
import { resolveServerTools } from '../../src/registry/server-tools.js';
import { toolOwner } from '../../src/registry/tool-owner.js';
import { fixtureServer, fleetConfig } from '../supervisor/fleet.js';

function tools(serverId: string, names: string[], namespaced = true) {
  return resolveServerTools({
    serverId,
    separator: '.',
    discovered: names.map((name) => ({ name })),
    declared: [],
    scopesRequired: [],
    namespaced,
  }).tools;
}

describe('names of a server with namespace: false', () => {
  it('are its own names, unchanged; a namespaced server keeps exposedName', () => {
    expect(exposedNameFor('fx', 'get-env', '.', false)).toBe('get-env');
    expect(exposedNameFor('fx', 'get-env', '.', true)).toBe('fx.get-env');
    expect(tools('u', ['b.x', 'read_file'], false).map((t) => [t.name, t.server, t.tool])).toEqual([
      ['b.x', 'u', 'b.x'],
      ['read_file', 'u', 'read_file'],
    ]);
  });

  it("meet a namespaced server's name: the first server in config order keeps it, the other is held", () => {
    const perServer = new Map([
      ['u', tools('u', ['b.x', 'own'], false)],
      ['b', tools('b', ['x'])],
    ]);
    const bFirst = RouteTable.build(perServer, ['b', 'u']);
    expect(bFirst.get('b.x')).toMatchObject({ server: 'b', tool: 'x' });
    expect(bFirst.listFor('u').map((t) => t.name)).toEqual(['own']);
    expect(bFirst.held).toEqual([{ kind: 'tool', server: 'u', name: 'b.x', heldFor: 'b' }]);
    // The order of the map (who listed first) does not matter; the config order does.
    const uFirst = RouteTable.build(perServer, ['u', 'b']);
    expect(uFirst.get('b.x')).toMatchObject({ server: 'u', tool: 'b.x' });
    expect(uFirst.held).toEqual([{ kind: 'tool', server: 'b', name: 'b.x', heldFor: 'u' }]);
  });

  it('meet each other: two servers with the same name; when the holder goes, the held one comes through', () => {
    const both = new Map([
      ['one', [{ name: 'echo' }, { name: 'add' }]],
      ['two', [{ name: 'echo' }, { name: 'echo' }]],
    ]);
    const settled = settleNames(both, ['one', 'two'], 'prompt');
    expect(settled.kept.get('two')).toEqual([]);
    // A server's own duplicate is not a collision with anyone.
    expect(settled.held).toEqual([{ kind: 'prompt', server: 'two', name: 'echo', heldFor: 'one' }]);
    const alone = settleNames(new Map([['two', [{ name: 'echo' }]]]), ['one', 'two'], 'prompt');
    expect(alone.kept.get('two')).toEqual([{ name: 'echo' }]);
    expect(alone.held).toEqual([]);
  });
});

describe('toolOwner with namespace: false', () => {
  const config = fleetConfig([
    fixtureServer('fx'),
    fixtureServer('own', [], { namespace: false, tools: [{ name: 'declared', scopesRequired: [] }] }),
    fixtureServer('own2', [], { namespace: false }),
  ]);

  it('gives a namespaced name to its server, a declared own name to its declarer, any other to the first un-namespaced', () => {
    expect(toolOwner(config, 'fx.echo')).toBe('fx');
    expect(toolOwner(config, 'declared')).toBe('own');
    expect(toolOwner(config, 'echo')).toBe('own');
    expect(toolOwner(config, 'own2.echo')).toBe('own');
    expect(toolOwner(fleetConfig([fixtureServer('fx')]), 'echo')).toBeUndefined();
  });
});
