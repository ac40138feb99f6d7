import { describe, expect, it } from 'vitest';
import { RegistryError } from '../../src/registry/errors.js';
import type { McpToolEntry } from '../../src/registry/manifest.js';
import { parseManifest } from '../../src/registry/manifest.js';
import { checkScopes } from '../../src/registry/scopes.js';
import { ToolRegistry } from '../../src/registry/tool-registry.js';

function registryError(fn: () => unknown): RegistryError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(RegistryError);
    return err as RegistryError;
  }
  throw new Error('expected a RegistryError');
}

const MIXED: McpToolEntry[] = [
  'documents.list',
  {
    name: 'documents.create',
    description: 'Create a new document',
    input_schema: { type: 'object', required: ['title'] },
    output_schema: { type: 'object', required: ['id'] },
    scopes_required: ['mcp.write.documents'],
  },
  'documents.delete',
];

describe('ToolRegistry', () => {
  it('ingests mixed forms from a manifest and stores the normalized form, in order', () => {
    const r = new ToolRegistry();
    r.registerFromManifest(MIXED);
    expect(r.size).toBe(3);
    expect(r.list().map((t) => t.name)).toEqual(['documents.list', 'documents.create', 'documents.delete']);
    expect(r.get('documents.list')).toEqual({ name: 'documents.list', scopesRequired: [] });
    expect(r.get('documents.create')).toEqual({
      name: 'documents.create',
      description: 'Create a new document',
      inputSchema: { type: 'object', required: ['title'] },
      outputSchema: { type: 'object', required: ['id'] },
      scopesRequired: ['mcp.write.documents'],
    });
  });

  it('basic ops: has, get of an unknown name, list is a fresh array', () => {
    const r = new ToolRegistry();
    expect(r.size).toBe(0);
    expect(r.list()).toEqual([]);
    r.registerFromManifest(MIXED);
    expect(r.has('documents.create')).toBe(true);
    expect(r.has('documents.nope')).toBe(false);
    expect(r.get('documents.nope')).toBeUndefined();
    const l = r.list();
    l.pop();
    expect(r.size).toBe(3);
    expect(Object.isFrozen(r.get('documents.list'))).toBe(true);
  });

  it('register adds a single entry of either form and returns it', () => {
    const r = new ToolRegistry();
    expect(r.register('a.b')).toEqual({ name: 'a.b', scopesRequired: [] });
    expect(r.register({ name: 'a.c', scopes_required: ['s'] })).toEqual({
      name: 'a.c',
      scopesRequired: ['s'],
    });
    expect(r.list().map((t) => t.name)).toEqual(['a.b', 'a.c']);
  });

  it('clear empties it, and names can be registered again', () => {
    const r = new ToolRegistry();
    r.registerFromManifest(MIXED);
    r.clear();
    expect(r.size).toBe(0);
    expect(r.has('documents.list')).toBe(false);
    r.registerFromManifest(MIXED);
    expect(r.size).toBe(3);
  });

  it('throws duplicate_tool on a name already registered (either form)', () => {
    const r = new ToolRegistry();
    r.register('documents.list');
    const e1 = registryError(() => r.register('documents.list'));
    expect(e1.code).toBe('duplicate_tool');
    expect(e1.message).toBe('duplicate tool "documents.list": already registered');
    expect(registryError(() => r.register({ name: 'documents.list' })).code).toBe('duplicate_tool');
    expect(registryError(() => r.registerFromManifest(['documents.list'])).code).toBe('duplicate_tool');
    expect(r.size).toBe(1);
  });

  it('throws duplicate_tool on a name twice in one manifest list', () => {
    const r = new ToolRegistry();
    expect(registryError(() => r.registerFromManifest(['a', { name: 'a' }])).code).toBe('duplicate_tool');
  });

  it('throws invalid_name on a name that breaks the convention', () => {
    const r = new ToolRegistry();
    for (const bad of ['Documents.create', 'get-env', '.a', 'a.', 'a..b', '1a', '']) {
      const e = registryError(() => r.register(bad));
      expect(e.code).toBe('invalid_name');
    }
    expect(registryError(() => r.register({ name: 'getTinyImage' })).message).toBe(
      'invalid tool name "getTinyImage": expected dot-separated segments of [a-z][a-z0-9_]*',
    );
    expect(registryError(() => r.register(42 as unknown as string)).code).toBe('invalid_name');
    expect(registryError(() => r.register({} as unknown as McpToolEntry)).code).toBe('invalid_name');
    expect(r.size).toBe(0);
  });

  it('registerFromManifest is atomic: one bad entry and none is registered', () => {
    const r = new ToolRegistry();
    r.register('existing');
    expect(registryError(() => r.registerFromManifest(['x.one', 'x.two', 'X.Bad', 'x.three'])).code).toBe(
      'invalid_name',
    );
    expect(registryError(() => r.registerFromManifest(['x.one', 'x.two', 'x.one'])).code).toBe(
      'duplicate_tool',
    );
    expect(registryError(() => r.registerFromManifest(['x.one', 'existing'])).code).toBe('duplicate_tool');
    expect(r.list().map((t) => t.name)).toEqual(['existing']);
  });

  it('works end to end with the seed flow: manifest → registry → scope check', () => {
    const manifest = parseManifest(
      [
        'provides:',
        '  scopes_required: [mcp.read.documents]',
        '  mcp_tools:',
        '    - documents.list',
        '    - name: documents.create',
        '      scopes_required: [mcp.write.documents]',
      ].join('\n'),
    );
    const r = new ToolRegistry();
    r.registerFromManifest(manifest.provides.mcp_tools);
    const tool = r.get('documents.create')!;
    const denied = checkScopes({
      pluginWideScopes: manifest.provides.scopes_required,
      callerScopes: ['mcp.write.documents'],
      tool,
    });
    expect(denied).toEqual({
      ok: false,
      required: ['mcp.read.documents', 'mcp.write.documents'],
      missing: ['mcp.read.documents'],
    });
    const allowed = checkScopes({
      pluginWideScopes: manifest.provides.scopes_required,
      callerScopes: ['mcp.read.*', 'mcp.write.documents'],
      tool,
    });
    expect(allowed.ok).toBe(true);
  });
});
