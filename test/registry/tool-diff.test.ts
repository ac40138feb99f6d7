import { describe, expect, it } from 'vitest';
import { diffTools, toolFingerprint } from '../../src/registry/tool-diff.js';
import type { ExposedTool } from '../../src/supervisor/types.js';

function tool(name: string, over: Partial<ExposedTool> = {}): ExposedTool {
  return {
    name: `s.${name}`,
    server: 's',
    tool: name,
    description: `does ${name}`,
    inputSchema: {
      type: 'object',
      properties: { path: { type: 'string', minLength: 1 } },
      required: ['path'],
    },
    scopesRequired: ['a', 'b'],
    ...over,
  };
}

describe('diffTools', () => {
  it('reports nothing for equal lists', () => {
    expect(diffTools([tool('x'), tool('y')], [tool('x'), tool('y')])).toEqual({
      added: [],
      removed: [],
      changed: [],
    });
  });

  it('reports added (next order), removed (prev order) and changed by exposed name', () => {
    const prev = [tool('keep'), tool('gone2'), tool('edit'), tool('gone1')];
    const next = [tool('new2'), tool('edit', { description: 'new words' }), tool('keep'), tool('new1')];
    expect(diffTools(prev, next)).toEqual({
      added: ['s.new2', 's.new1'],
      removed: ['s.gone2', 's.gone1'],
      changed: ['s.edit'],
    });
  });

  it('ignores key order in schemas, at every depth', () => {
    const reordered = tool('x', {
      inputSchema: {
        required: ['path'],
        properties: { path: { minLength: 1, type: 'string' } },
        type: 'object',
      },
    });
    expect(diffTools([tool('x')], [reordered]).changed).toEqual([]);
  });

  it('ignores scope order but not scope content', () => {
    expect(diffTools([tool('x')], [tool('x', { scopesRequired: ['b', 'a'] })]).changed).toEqual([]);
    expect(diffTools([tool('x')], [tool('x', { scopesRequired: ['a', 'b', 'c'] })]).changed).toEqual(['s.x']);
  });

  it.each<[string, Partial<ExposedTool>]>([
    ['a description', { description: 'other' }],
    ['a dropped description', { description: undefined as unknown as string }],
    ['an input schema value', { inputSchema: { type: 'object', properties: { path: { type: 'number' } } } }],
    ['array order in a schema', { inputSchema: { type: 'object', required: ['b', 'a'] } }],
    ['an added output schema', { outputSchema: { type: 'object' } }],
    ['the routed tool', { tool: 'other' }],
  ])('reports %s as changed', (_what, over) => {
    const base = tool('x', { inputSchema: { type: 'object', required: ['a', 'b'] } });
    expect(diffTools([base], [{ ...base, ...over }]).changed).toEqual(['s.x']);
  });

  it('compares by exposed name, not by position or server-side name', () => {
    const a = tool('x');
    const moved = { ...a, name: 's.x2' };
    expect(diffTools([a], [moved])).toEqual({ added: ['s.x2'], removed: ['s.x'], changed: [] });
  });
});

describe('toolFingerprint', () => {
  it('is equal exactly when the diff sees no change', () => {
    const a = tool('x');
    const b = tool('x', {
      inputSchema: { type: 'object', required: ['path'], properties: a.inputSchema['properties'] },
    });
    expect(toolFingerprint(a)).toBe(toolFingerprint(b));
    expect(toolFingerprint(a)).not.toBe(toolFingerprint(tool('x', { description: 'y' })));
  });
});
