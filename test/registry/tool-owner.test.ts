import { describe, expect, it } from 'vitest';
import { exposedName } from '../../src/registry/exposed-name.js';
import { toolOwner } from '../../src/registry/tool-owner.js';
import { fixtureServer, fleetConfig } from '../supervisor/fleet.js';

describe('toolOwner', () => {
  const config = fleetConfig([fixtureServer('fx'), fixtureServer('fx_more'), fixtureServer('other')]);

  it('is the longest server id that prefixes the name with the separator', () => {
    expect(toolOwner(config, 'fx.echo')).toBe('fx');
    expect(toolOwner(config, 'fx_more.echo')).toBe('fx_more');
    expect(toolOwner(config, 'other.a.b')).toBe('other');
  });

  it('is undefined for a name no server can own', () => {
    for (const name of ['nobody.echo', 'fx', 'fxecho', '', '.echo'])
      expect(toolOwner(config, name)).toBeUndefined();
  });

  it('owns hashed names too, and a declared tool by its exposed name', () => {
    const long = 'a'.repeat(70);
    const hashed = exposedName('fx', long, '.');
    expect(hashed.startsWith('fx.')).toBe(false);
    expect(toolOwner(config, hashed)).toBe('fx');
    const llm = fleetConfig([fixtureServer('srv')], { separator: '__' });
    expect(toolOwner(llm, exposedName('srv', 'read.file', '__'))).toBe('srv');
    const declared = fleetConfig([
      fixtureServer('srv', [], { tools: [{ name: 'x', scopesRequired: [] } as never] }),
    ]);
    expect(toolOwner(declared, exposedName('srv', 'x', '.'))).toBe('srv');
  });
});

describe('toolOwner under a separator a server id may contain', () => {
  const config = fleetConfig([fixtureServer('a'), fixtureServer('a__b')], { separator: '__' });

  it('gives a plain name to the server before its first separator, as the name was made', () => {
    const name = exposedName('a', 'b__c', '__');
    expect(name).toBe('a__b__c');
    expect(toolOwner(config, name)).toBe('a');
  });

  it('gives the other server its own tool, whose name is hashed because it would not split back', () => {
    const name = exposedName('a__b', 'c', '__');
    expect(name).not.toBe('a__b__c');
    expect(toolOwner(config, name)).toBe('a__b');
  });
});
