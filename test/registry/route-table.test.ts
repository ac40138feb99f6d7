import { describe, expect, it } from 'vitest';
import { RouteTable } from '../../src/registry/route-table.js';
import { resolveServerTools } from '../../src/registry/server-tools.js';
import type { ExposedTool } from '../../src/supervisor/types.js';

function tool(server: string, name: string, over: Partial<ExposedTool> = {}): ExposedTool {
  return {
    name: `${server}.${name}`,
    server,
    tool: name,
    inputSchema: { type: 'object' },
    scopesRequired: [],
    ...over,
  };
}

const files = [tool('files', 'read_file'), tool('files', 'write_file')];
const everything = [tool('everything', 'get-env'), tool('everything', 'getTinyImage')];

describe('RouteTable', () => {
  it('lists tools in fleet order: server order, then each server list order', () => {
    const table = RouteTable.build(
      new Map([
        ['files', files],
        ['everything', everything],
      ]),
      ['everything', 'files'],
    );
    expect(table.tools.map((t) => t.name)).toEqual([
      'everything.get-env',
      'everything.getTinyImage',
      'files.read_file',
      'files.write_file',
    ]);
    expect(table.size).toBe(4);
    expect(table.problems).toEqual([]);
  });

  it('routes an exposed name to its server and tool, and nothing else', () => {
    const table = RouteTable.build(new Map([['everything', everything]]), ['everything']);
    expect(table.get('everything.get-env')).toMatchObject({ server: 'everything', tool: 'get-env' });
    expect(table.has('everything.get-env')).toBe(true);
    expect(table.get('everything.nope')).toBeUndefined();
    expect(table.get('get-env')).toBeUndefined();
  });

  it('lists one server', () => {
    const table = RouteTable.build(new Map([['files', files]]), ['files', 'idle']);
    expect(table.listFor('files').map((t) => t.tool)).toEqual(['read_file', 'write_file']);
    expect(table.listFor('idle')).toEqual([]);
    expect(table.listFor('unknown')).toEqual([]);
    expect(RouteTable.empty.tools).toEqual([]);
  });

  it('routes by the explicit map even where splitting the name would pick the wrong server', () => {
    const a = resolveServerTools({
      serverId: 'a',
      separator: '__',
      discovered: [{ name: 'b__c' }],
      declared: [],
      scopesRequired: [],
    });
    const ab = resolveServerTools({
      serverId: 'a__b',
      separator: '__',
      discovered: [{ name: 'c' }],
      declared: [],
      scopesRequired: [],
    });
    const table = RouteTable.build(
      new Map([
        ['a', a.tools],
        ['a__b', ab.tools],
      ]),
      ['a', 'a__b'],
    );
    expect(table.size).toBe(2);
    for (const t of [...a.tools, ...ab.tools]) {
      expect(table.get(t.name)).toMatchObject({ server: t.server, tool: t.tool });
    }
  });

  it('appends servers missing from the order instead of losing their tools', () => {
    const table = RouteTable.build(
      new Map([
        ['files', files],
        ['everything', everything],
      ]),
      ['files'],
    );
    expect(table.order).toEqual(['files', 'everything']);
    expect(table.tools.map((t) => t.server)).toEqual(['files', 'files', 'everything', 'everything']);
  });

  it('leaves out a taken name (first in fleet order keeps it) and a tool filed under another server', () => {
    const clash = tool('b', 'x', { name: 'a.x' });
    const misfiled = tool('a', 'y');
    const table = RouteTable.build(
      new Map([
        ['a', [tool('a', 'x')]],
        ['b', [clash, misfiled]],
      ]),
      ['a', 'b'],
    );
    expect(table.get('a.x')?.server).toBe('a');
    expect(table.has('a.y')).toBe(false);
    expect(table.listFor('b')).toEqual([]);
    expect(table.problems).toHaveLength(1);
    expect(table.problems[0]).toContain('filed under b');
    expect(table.held).toEqual([{ kind: 'tool', server: 'b', name: 'a.x', heldFor: 'a' }]);
  });
});

describe('RouteTable immutability', () => {
  it('building a new table leaves the old one intact', () => {
    const old = RouteTable.build(new Map([['files', files]]), ['files', 'everything']);
    const next = old.withServer('files', [tool('files', 'read_file', { description: 'v2' })]);
    const third = next.withServer('everything', everything);
    expect(old.tools.map((t) => t.name)).toEqual(['files.read_file', 'files.write_file']);
    expect(old.get('files.read_file')?.description).toBeUndefined();
    expect(old.has('files.write_file')).toBe(true);
    expect(next.has('files.write_file')).toBe(false);
    expect(next.get('files.read_file')?.description).toBe('v2');
    expect(next.has('everything.get-env')).toBe(false);
    expect(third.tools.map((t) => t.name)).toEqual([
      'files.read_file',
      'everything.get-env',
      'everything.getTinyImage',
    ]);
  });

  it('is not changed by later changes to its inputs, and cannot be changed through what it returns', () => {
    const input = [tool('files', 'read_file', { inputSchema: { type: 'object', properties: {} } })];
    const perServer = new Map([['files', input]]);
    const table = RouteTable.build(perServer, ['files']);
    input.push(tool('files', 'late'));
    (input[0]!.inputSchema['properties'] as Record<string, unknown>)['sneaky'] = { type: 'string' };
    input[0]!.scopesRequired.push('mcp.x');
    perServer.set('other', [tool('other', 'z')]);
    expect(table.tools.map((t) => t.name)).toEqual(['files.read_file']);
    expect(table.get('files.read_file')?.inputSchema).toEqual({ type: 'object', properties: {} });
    expect(table.get('files.read_file')?.scopesRequired).toEqual([]);
    expect(table.has('other.z')).toBe(false);

    const got = table.get('files.read_file')!;
    expect(() => {
      got.description = 'changed';
    }).toThrow(TypeError);
    expect(() => got.scopesRequired.push('mcp.y')).toThrow(TypeError);
    expect(() => (table.tools as ExposedTool[]).pop()).toThrow(TypeError);
    expect(table.size).toBe(1);
  });
});
