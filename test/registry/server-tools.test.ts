import { describe, expect, it } from 'vitest';
import { exposedName, LLM_SAFE_NAME } from '../../src/registry/exposed-name.js';
import type { NormalizedMcpTool } from '../../src/registry/manifest.js';
import {
  type DiscoveredTool,
  type ResolveServerToolsInput,
  resolveServerTools,
} from '../../src/registry/server-tools.js';

const obj = { type: 'object' };

function resolve(over: Partial<ResolveServerToolsInput>) {
  return resolveServerTools({
    serverId: 'everything',
    separator: '.',
    discovered: [],
    declared: [],
    scopesRequired: [],
    ...over,
  });
}

describe('resolveServerTools: names', () => {
  it('keeps real-world names exactly as the server spells them, in list order', () => {
    const discovered: DiscoveredTool[] = [
      { name: 'get-env', description: 'Env', inputSchema: { type: 'object', properties: {} } },
      { name: 'getTinyImage', inputSchema: obj },
      { name: 'read_file', inputSchema: obj },
    ];
    const { tools, problems } = resolve({ discovered });
    expect(problems).toEqual([]);
    expect(tools.map((t) => [t.name, t.server, t.tool])).toEqual([
      ['everything.get-env', 'everything', 'get-env'],
      ['everything.getTinyImage', 'everything', 'getTinyImage'],
      ['everything.read_file', 'everything', 'read_file'],
    ]);
    expect(tools[0]).toEqual({
      name: 'everything.get-env',
      server: 'everything',
      tool: 'get-env',
      description: 'Env',
      inputSchema: { type: 'object', properties: {} },
      scopesRequired: [],
      definition: discovered[0],
    });
  });

  it('keeps every other field of a definition: typed where MCP defines it, and whole as listed', () => {
    const listed = {
      name: 'rich',
      title: 'Rich',
      annotations: { readOnlyHint: true },
      execution: { taskSupport: 'required' },
      icons: [{ src: 'https://example.com/i.png' }],
      _meta: { 'example.com/k': 1 },
      futureField: [1, 2],
    };
    const [tool] = resolve({ discovered: [listed as DiscoveredTool] }).tools;
    expect(tool).toMatchObject({
      title: 'Rich',
      annotations: { readOnlyHint: true },
      execution: { taskSupport: 'required' },
      icons: [{ src: 'https://example.com/i.png' }],
      _meta: { 'example.com/k': 1 },
    });
    expect(tool?.definition).toEqual(listed);
    expect(tool?.definition).not.toBe(listed);
  });

  it('uses the LLM-safe form under "__"', () => {
    const { tools } = resolve({ separator: '__', discovered: [{ name: 'get.env' }, { name: 'get-env' }] });
    expect(tools.map((t) => t.tool)).toEqual(['get.env', 'get-env']);
    expect(tools[1]?.name).toBe('everything__get-env');
    for (const t of tools) expect(t.name).toMatch(LLM_SAFE_NAME);
    expect(tools[0]?.name).toBe(exposedName('everything', 'get.env', '__'));
  });

  it('drops names outside the MCP charset and entries without a name, one problem each', () => {
    const discovered = [
      { name: 'ok' },
      { name: 'has space' },
      { name: '' },
      { name: 'x'.repeat(129) },
      { name: 'ünï' },
      { name: 42 },
      null,
      { description: 'nameless' },
      { name: 'x'.repeat(128) },
    ] as unknown as DiscoveredTool[];
    const { tools, problems } = resolve({ discovered });
    expect(tools.map((t) => t.tool)).toEqual(['ok', 'x'.repeat(128)]);
    expect(problems).toHaveLength(7);
    for (const p of problems)
      expect(p).toMatch(/^server everything: tool #\d+ .*not a valid MCP tool name.*dropped$/);
    expect(problems[0]).toContain('"has space"');
  });

  it('drops a duplicate within one list, keeping the first copy', () => {
    const { tools, problems } = resolve({
      discovered: [
        { name: 'echo', description: 'first' },
        { name: 'echo', description: 'second' },
      ],
    });
    expect(tools).toHaveLength(1);
    expect(tools[0]?.description).toBe('first');
    expect(problems).toEqual(['server everything: tool "echo" is listed more than once; later copy dropped']);
  });

  it('gives the same names whatever other tools the server lists', () => {
    const few = resolve({ separator: '__', discovered: [{ name: 'a.b' }, { name: 'c' }] });
    const many = resolve({
      separator: '__',
      discovered: [{ name: 'z' }, { name: 'a_b' }, { name: 'c' }, { name: 'a.b' }, { name: 'c-d' }],
    });
    const byTool = new Map(many.tools.map((t) => [t.tool, t.name]));
    for (const t of few.tools) expect(byTool.get(t.tool)).toBe(t.name);
  });
});

describe('resolveServerTools: schemas', () => {
  it('defaults a missing inputSchema to {type: object} and repairs a non-object one with a problem', () => {
    const discovered = [
      { name: 'none' },
      { name: 'bad', inputSchema: 'string', outputSchema: [1] },
      {
        name: 'out',
        inputSchema: obj,
        outputSchema: { type: 'object', properties: { n: { type: 'number' } } },
      },
    ] as unknown as DiscoveredTool[];
    const { tools, problems } = resolve({ discovered });
    expect(tools[0]?.inputSchema).toEqual({ type: 'object' });
    expect(tools[1]?.inputSchema).toEqual({ type: 'object' });
    expect(tools[1]).not.toHaveProperty('outputSchema');
    expect(tools[2]?.outputSchema).toEqual({ type: 'object', properties: { n: { type: 'number' } } });
    expect(problems).toHaveLength(2);
    expect(problems[0]).toContain('"bad" has a non-object inputSchema');
    expect(problems[1]).toContain('"bad" has a non-object outputSchema');
  });
});

describe('resolveServerTools: declared tools', () => {
  const declared: NormalizedMcpTool[] = [
    { name: 'list_files', description: 'Lists files', scopesRequired: [] },
    {
      name: 'write_file',
      description: 'Writes a file',
      scopesRequired: ['mcp.write.files', 'mcp.read.files'],
    },
    { name: 'delete_file', scopesRequired: ['mcp.admin'] },
  ];

  it('adds description fallbacks and the union of plugin-wide and tool scopes, deduplicated in order', () => {
    const { tools, missingDeclared } = resolve({
      serverId: 'files',
      discovered: [
        { name: 'list_files' },
        { name: 'write_file', description: 'The server says so' },
        { name: 'stat', description: '' },
      ],
      declared,
      scopesRequired: ['mcp.read.files', 'mcp.base'],
    });
    expect(tools.map((t) => [t.tool, t.description, t.scopesRequired])).toEqual([
      ['list_files', 'Lists files', ['mcp.read.files', 'mcp.base']],
      ['write_file', 'The server says so', ['mcp.read.files', 'mcp.base', 'mcp.write.files']],
      ['stat', undefined, ['mcp.read.files', 'mcp.base']],
    ]);
    expect(tools[2]).not.toHaveProperty('description');
    expect(missingDeclared).toEqual(['delete_file']);
  });

  it('falls back to the declared description when the server sends an empty one', () => {
    const { tools } = resolve({ discovered: [{ name: 'list_files', description: '  ' }], declared });
    expect(tools[0]?.description).toBe('Lists files');
  });

  it('reports declared tools the server does not list and does not expose them', () => {
    const { tools, missingDeclared, problems } = resolve({ serverId: 'files', discovered: [], declared });
    expect(tools).toEqual([]);
    expect(missingDeclared).toEqual(['list_files', 'write_file', 'delete_file']);
    expect(problems).toEqual([]);
  });

  it('does not count a declared name as listed when the server listed it only under an invalid entry', () => {
    const discovered = [{ name: 'list_files', inputSchema: obj }, { name: 'write file' }] as DiscoveredTool[];
    const { missingDeclared } = resolve({ discovered, declared });
    expect(missingDeclared).toEqual(['write_file', 'delete_file']);
  });
});
