import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { RegistryError } from '../../src/registry/errors.js';
import {
  loadManifest,
  McpToolEntrySchema,
  mcpToolEntryNameIssues,
  normalizeMcpToolEntry,
  parseManifest,
} from '../../src/registry/manifest.js';

/** Runs `fn`, which must throw a RegistryError, and returns it. */
function registryError(fn: () => unknown): RegistryError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(RegistryError);
    return err as RegistryError;
  }
  throw new Error('expected a RegistryError');
}

const SEED_MANIFEST = `name: markview
version: 1.2.0
provides:
  mcp_tools:
    - documents.list                        # string-form (Phase-1)
    - name: documents.create                # Extended-Form (Phase-3)
      description: Create a new document
      input_schema:
        type: object
        required: [title]
        properties:
          title: { type: string }
      output_schema:
        type: object
        required: [id]
      scopes_required:
        - mcp.write.documents
  scopes_required: [mcp.read.documents]
`;

describe('normalizeMcpToolEntry', () => {
  it('upgrades the string form to { name, scopesRequired: [] } with no other keys', () => {
    const n = normalizeMcpToolEntry('documents.list');
    expect(n).toStrictEqual({ name: 'documents.list', scopesRequired: [] });
  });

  it('maps the extended form to MCP camelCase', () => {
    const n = normalizeMcpToolEntry({
      name: 'documents.create',
      description: 'Create',
      input_schema: { type: 'object' },
      output_schema: { type: 'object', required: ['id'] },
      scopes_required: ['mcp.write.documents'],
    });
    expect(n).toStrictEqual({
      name: 'documents.create',
      description: 'Create',
      inputSchema: { type: 'object' },
      outputSchema: { type: 'object', required: ['id'] },
      scopesRequired: ['mcp.write.documents'],
    });
    expect(normalizeMcpToolEntry({ name: 'a' })).toStrictEqual({ name: 'a', scopesRequired: [] });
  });

  it('copies scopes_required (the normalized form does not alias the entry)', () => {
    const entry = { name: 'a', scopes_required: ['x'] };
    normalizeMcpToolEntry(entry).scopesRequired.push('y');
    expect(entry.scopes_required).toEqual(['x']);
  });
});

describe('McpToolEntrySchema', () => {
  it('accepts both forms', () => {
    expect(z.array(McpToolEntrySchema).parse(['a', { name: 'b', scopes_required: ['s'] }])).toEqual([
      'a',
      { name: 'b', scopes_required: ['s'] },
    ]);
  });

  it("reports the extended branch's own issues, not a bare 'Invalid input'", () => {
    const r = z.array(McpToolEntrySchema).safeParse([{ name: 'b', scopes_required: [1], extra: true }, 3]);
    expect(r.success).toBe(false);
    const issues = r.error!.issues.map((i) => [i.path.join('/'), i.code]);
    expect(issues).toEqual([
      ['0/scopes_required/0', 'invalid_type'],
      ['0', 'unrecognized_keys'],
      ['1', 'custom'],
    ]);
  });
});

describe('mcpToolEntryNameIssues', () => {
  it('finds invalid and duplicate names in raw input, at the entry or its `name`', () => {
    expect(mcpToolEntryNameIssues(['a', 'Bad', { name: 'a' }, { name: 'x-y' }, 7, { nope: 1 }])).toEqual([
      { path: [1], message: expect.stringContaining('invalid tool name "Bad"') },
      { path: [2, 'name'], message: 'duplicate tool "a"', firstPath: [0] },
      { path: [3, 'name'], message: expect.stringContaining('invalid tool name "x-y"') },
    ]);
    expect(mcpToolEntryNameIssues('not a list')).toEqual([]);
  });
});

describe('parseManifest', () => {
  it('parses the seed manifest: mixed forms, plugin-wide scopes, other top-level fields kept', () => {
    const m = parseManifest(SEED_MANIFEST, 'markview.yaml');
    expect(m.provides.scopes_required).toEqual(['mcp.read.documents']);
    expect(m.provides.mcp_tools).toHaveLength(2);
    expect(m.provides.mcp_tools[0]).toBe('documents.list');
    expect(m.provides.mcp_tools[1]).toMatchObject({
      name: 'documents.create',
      scopes_required: ['mcp.write.documents'],
      input_schema: { type: 'object', required: ['title'] },
    });
    expect(m['name']).toBe('markview');
    expect(m['version']).toBe('1.2.0');
  });

  it('fills defaults for an empty provides', () => {
    expect(parseManifest('provides: {}\n').provides).toEqual({ mcp_tools: [], scopes_required: [] });
  });

  it('accepts JSON text too', () => {
    expect(parseManifest('{"provides": {"mcp_tools": ["a.b"]}}').provides.mcp_tools).toEqual(['a.b']);
  });

  it('reports every problem with its line, in file order, as file:line:col path: message', () => {
    const text = [
      'name: broken', //                                       1
      'provides:', //                                          2
      '  mcp_tools:', //                                       3
      '    - documents.list', //                               4
      '    - Documents.Bad', //                                5
      '    - name: documents.create', //                       6
      '      scopes_required: [1]', //                         7
      '      extra: true', //                                  8
      '    - 42', //                                           9
      '    - documents.list', //                              10
      '    - name: get-env', //                               11
      '  scopes_required: oops', //                           12
      '  other: x', //                                        13
      '',
    ].join('\n');
    const err = registryError(() => parseManifest(text, 'm.yaml'));
    expect(err.code).toBe('invalid_manifest');
    const lines = [
      'm.yaml:5:7 provides.mcp_tools[1]: invalid tool name "Documents.Bad": expected dot-separated segments of [a-z][a-z0-9_]*',
      'm.yaml:7:25 provides.mcp_tools[2].scopes_required[0]: Invalid input: expected string, received number',
      'm.yaml:8:7 provides.mcp_tools[2].extra: unknown key',
      'm.yaml:9:7 provides.mcp_tools[3]: expected a tool name or a mapping with `name`, received number',
      'm.yaml:10:7 provides.mcp_tools[4]: duplicate tool "documents.list" (first declared at line 4)',
      'm.yaml:11:7 provides.mcp_tools[5].name: invalid tool name "get-env": expected dot-separated segments of [a-z][a-z0-9_]*',
      'm.yaml:12:3 provides.scopes_required: Invalid input: expected array, received string',
      'm.yaml:13:3 provides.other: unknown key',
    ];
    expect(err.message).toBe(lines.join('\n'));
    expect(err.problems.map((p) => p.line)).toEqual([5, 7, 8, 9, 10, 11, 12, 13]);
    expect(err.problems[0]).toEqual({
      source: 'm.yaml',
      line: 5,
      col: 7,
      path: 'provides.mcp_tools[1]',
      message: expect.stringContaining('Documents.Bad'),
    });
  });

  it('reports YAML syntax errors and duplicate keys with their lines', () => {
    const err = registryError(() =>
      parseManifest('provides:\n  mcp_tools: [a]\n  mcp_tools: [b]\nname: [x\n', 'dup.yaml'),
    );
    expect(err.code).toBe('invalid_manifest');
    const lines = err.message.split('\n');
    expect(lines[0]).toBe('dup.yaml:3:3: duplicate key');
    expect(lines.length).toBeGreaterThanOrEqual(2);
    expect(lines.slice(1).every((l) => /^dup\.yaml:\d+:\d+: /.test(l))).toBe(true);
  });

  it('requires provides and an object document', () => {
    expect(registryError(() => parseManifest('name: x\n', 'a.yaml')).message).toBe(
      'a.yaml:1:1 provides: Invalid input: expected object, received undefined',
    );
    expect(registryError(() => parseManifest('', 'e.yaml')).message).toBe(
      'e.yaml:1:1: Invalid input: expected object, received null',
    );
    expect(registryError(() => parseManifest('- a\n', 'l.yaml')).message).toBe(
      'l.yaml:1:1: Invalid input: expected object, received array',
    );
  });

  it('uses <manifest> as the default source', () => {
    expect(registryError(() => parseManifest('provides: { mcp_tools: [X] }')).message).toMatch(
      /^<manifest>:1:25 provides\.mcp_tools\[0\]: invalid tool name "X"/,
    );
  });
});

describe('loadManifest', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mcp-supervisor-manifest-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads and parses a real file', async () => {
    const path = join(dir, 'markview.manifest.yaml');
    await writeFile(path, SEED_MANIFEST);
    const m = await loadManifest(path);
    expect(m.provides.mcp_tools.map((e) => (typeof e === 'string' ? e : e.name))).toEqual([
      'documents.list',
      'documents.create',
    ]);
  });

  it('names the file in located problems', async () => {
    const path = join(dir, 'bad.yaml');
    await writeFile(path, 'provides:\n  mcp_tools:\n    - ok\n    - Not.Ok\n');
    await expect(loadManifest(path)).rejects.toThrow(`${path}:4:7 provides.mcp_tools[1]: invalid tool name`);
  });

  it('turns a missing file into an invalid_manifest problem at 1:1, not a stack trace', async () => {
    const path = join(dir, 'missing.yaml');
    const err = await loadManifest(path).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(RegistryError);
    expect((err as RegistryError).code).toBe('invalid_manifest');
    expect((err as RegistryError).message).toBe(
      `${path}:1:1: cannot read manifest: ENOENT: no such file or directory`,
    );
    expect((err as RegistryError).problems).toEqual([
      {
        source: path,
        line: 1,
        col: 1,
        path: '',
        message: 'cannot read manifest: ENOENT: no such file or directory',
      },
    ]);
  });

  it('turns a directory into an invalid_manifest problem too', async () => {
    await expect(loadManifest(dir)).rejects.toMatchObject({
      code: 'invalid_manifest',
      message: expect.stringMatching(/^.+:1:1: cannot read manifest: EISDIR/),
    });
  });
});
