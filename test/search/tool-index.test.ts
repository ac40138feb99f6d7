import { describe, expect, it } from 'vitest';
import type { ExposedTool } from '../../src/registry/exposed-tool.js';
import { ToolIndex } from '../../src/search/tool-index.js';
import { words } from '../../src/search/words.js';

const tool = (
  server: string,
  name: string,
  description: string,
  props: Record<string, string> = {},
): ExposedTool => ({
  name: `${server}.${name}`,
  server,
  tool: name,
  description,
  inputSchema: {
    type: 'object',
    properties: Object.fromEntries(
      Object.entries(props).map(([k, d]) => [k, { type: 'string', description: d }]),
    ),
  },
  scopesRequired: [],
});

const FLEET = [
  tool('fs', 'read_text_file', 'Read the complete contents of a file as text.', {
    path: 'Where the file is',
  }),
  tool('fs', 'list_directory', 'Get a detailed listing of all files and directories in a specified path.'),
  tool('fs', 'move_file', 'Move or rename files and directories.', { source: 'From', destination: 'To' }),
  tool('gh', 'create_issue', 'Create a new issue in a GitHub repository.', {
    title: 'Issue title',
    body: 'Text',
  }),
  tool('gh', 'searchRepositories', 'Search for GitHub repositories.', { query: 'Search query' }),
  tool('mem', 'create_entities', 'Create multiple new entities in the knowledge graph.'),
  tool('fs', 'create_directory', 'Create a new directory, nested ones too.', { path: 'Where' }),
];
const none = () => undefined;

describe('words', () => {
  it('splits names at _, -, ., / and camelCase, lower-cases and strips the commonest endings', () => {
    expect(words('getFileInfo read-multiple.files HTTPServer list_issues2')).toEqual([
      'get',
      'fil',
      'info',
      'read',
      'multipl',
      'fil',
      'http',
      'server',
      'list',
      'issu',
      '2',
    ]);
    expect(words('the files I created')).toEqual(words('file create'));
    expect(words('to the of')).toEqual([]);
  });
});

describe('ToolIndex', () => {
  it('ranks the tool whose name and description fit the words first, with its schema and a score', () => {
    const index = new ToolIndex();
    index.sync(FLEET, none);
    const [first, second] = index.search('read a file', 5);
    expect(first).toMatchObject({ name: 'fs.read_text_file', inputSchema: { type: 'object' } });
    expect(first!.score).toBeGreaterThan(second!.score);
    expect(index.search('open an issue on github', 1).map((h) => h.name)).toEqual(['gh.create_issue']);
    expect(index.search('rename a directory', 1).map((h) => h.name)).toEqual(['fs.move_file']);
    // camelCase names are words too; a word cut short finds what it begins.
    expect(index.search('search repositories', 1).map((h) => h.name)).toEqual(['gh.searchRepositories']);
    expect(index.search('knowledge gra', 1).map((h) => h.name)).toEqual(['mem.create_entities']);
    expect(index.search('zebra', 5)).toEqual([]);
    expect(index.search('the of to', 5)).toEqual([]);
    expect(index.search('file', 2)).toHaveLength(2);
    // A folder is a directory, a repo a repository: the words people use find the words tools use.
    expect(index.search('make a new folder', 1).map((h) => h.name)).toEqual(['fs.create_directory']);
    expect(index.search('find a repo', 1).map((h) => h.name)).toEqual(['gh.searchRepositories']);
  });

  it('follows the tools it is given: added, removed and changed ones', () => {
    const index = new ToolIndex();
    index.sync(FLEET, none);
    expect(index.size).toBe(7);
    const changed = { ...FLEET[5]!, description: 'Forget everything about a person.' };
    index.sync([...FLEET.slice(1, 5), changed, tool('wx', 'forecast', 'Weather forecast for a city.')], none);
    expect(index.size).toBe(6);
    expect(index.search('read the complete contents of a file', 5).map((h) => h.name)).not.toContain(
      'fs.read_text_file',
    );
    expect(index.search('weather', 1).map((h) => h.name)).toEqual(['wx.forecast']);
    expect(index.search('knowledge graph', 5).map((h) => h.name)).not.toContain('mem.create_entities');
    expect(index.search('forget a person', 1).map((h) => h.name)).toEqual(['mem.create_entities']);
  });

  it("weighs a server's instructions weakly: they tell servers apart", () => {
    const index = new ToolIndex();
    const twins = [tool('a', 'search', 'Search.'), tool('b', 'search', 'Search.')];
    index.sync(twins, (server) => (server === 'b' ? 'Searches the company wiki.' : 'Searches the web.'));
    expect(index.search('search wiki', 1).map((h) => h.name)).toEqual(['b.search']);
  });
});
