import { describe, expect, it } from 'vitest';
import { RegistryError } from '../../src/registry/errors.js';
import { resolveServerTools } from '../../src/registry/server-tools.js';
import { ToolRegistry } from '../../src/registry/tool-registry.js';

function code(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(RegistryError);
    return (err as RegistryError).code;
  }
  throw new Error('expected a RegistryError');
}

describe('ToolRegistry for what a live server lists ({ names: "mcp" })', () => {
  it('admits names as servers spell them, and still refuses what is outside the MCP charset', () => {
    const listed = new ToolRegistry({ names: 'mcp' });
    for (const name of ['get-env', 'getTinyImage', 'read_file', 'a.b'])
      listed.registerNormalized({ name, scopesRequired: [] });
    expect(listed.list().map((t) => t.name)).toEqual(['get-env', 'getTinyImage', 'read_file', 'a.b']);
    expect(code(() => listed.registerNormalized({ name: 'has space', scopesRequired: [] }))).toBe(
      'invalid_name',
    );
    expect(code(() => listed.registerNormalized({ name: 'x'.repeat(129), scopesRequired: [] }))).toBe(
      'invalid_name',
    );
    expect(code(() => listed.registerNormalized({ name: 'get-env', scopesRequired: [] }))).toBe(
      'duplicate_tool',
    );
    expect(code(() => listed.register('get-env'))).toBe('duplicate_tool');
  });

  it('keeps the seed rule by default, for normalized tools too', () => {
    const declared = new ToolRegistry();
    expect(code(() => declared.registerNormalized({ name: 'get-env', scopesRequired: [] }))).toBe(
      'invalid_name',
    );
    const stored = declared.registerNormalized({
      name: 'documents.create',
      inputSchema: { type: 'object' },
      scopesRequired: ['mcp.write'],
    });
    expect(stored).toEqual({
      name: 'documents.create',
      inputSchema: { type: 'object' },
      scopesRequired: ['mcp.write'],
    });
    expect(Object.isFrozen(stored)).toBe(true);
    expect(declared.get('documents.create')).toBe(stored);
  });

  it('stores a copy: changing the tool given afterwards changes nothing stored', () => {
    const registry = new ToolRegistry();
    const tool = { name: 'a', scopesRequired: ['s'] };
    registry.registerNormalized(tool);
    tool.scopesRequired.push('t');
    expect(registry.get('a')?.scopesRequired).toEqual(['s']);
  });
});

describe('resolveServerTools keeps both sides in the registry', () => {
  it('a tool declared in code under its server-side spelling keeps its scopes', () => {
    const { tools } = resolveServerTools({
      serverId: 'everything',
      separator: '.',
      discovered: [{ name: 'get-env' }],
      declared: [{ name: 'get-env', scopesRequired: ['mcp.secrets'] }],
      scopesRequired: [],
    });
    expect(tools[0]?.scopesRequired).toEqual(['mcp.secrets']);
  });

  it('a declared name no server could list is a problem line, not a missing tool', () => {
    const { problems, missingDeclared } = resolveServerTools({
      serverId: 'files',
      separator: '.',
      discovered: [],
      declared: [{ name: 'no such name', scopesRequired: [] }],
      scopesRequired: [],
    });
    expect(missingDeclared).toEqual([]);
    expect(problems).toEqual([
      'server files: invalid tool name "no such name": expected [A-Za-z0-9_.-]{1,128}; declared tool ignored',
    ]);
  });
});
