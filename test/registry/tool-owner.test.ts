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
