import MiniSearch from 'minisearch';
import type { ExposedTool } from '../registry/exposed-tool.js';
import { documentKey, type ToolDocument, toolDocument } from './tool-document.js';
import { words } from './words.js';

/** One tool a search found: what a client needs to call it, and how well it matched (higher is better). */
export interface ToolSearchHit {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  score: number;
}

/**
 * How much each field counts. The name and title say what a tool is; parameters say what it takes; the
 * server's id and instructions only tell tools of one kind of server apart, so they weigh least.
 */
const BOOST = { name: 3, title: 2, description: 1.5, params: 0.8, server: 0.3 };

/**
 * An in-process BM25+ index (minisearch) over the fleet's tools, kept in step with the registry by `sync`: tools
 * that appeared are added, those gone are dropped, those whose definition changed are indexed again.
 */
export class ToolIndex {
  private readonly mini = new MiniSearch<ToolDocument>({
    fields: ['name', 'title', 'description', 'params', 'server'],
    tokenize: (text) => words(text),
    // `words` already cased and stemmed every term, in the documents and in the queries alike.
    processTerm: (term) => term,
    searchOptions: {
      boost: BOOST,
      combineWith: 'OR',
      // A word cut short finds the tool (`calend` → calendar); a longer one misspelt by a letter or two too.
      prefix: (term) => term.length >= 4,
      fuzzy: (term) => (term.length >= 6 ? 0.2 : false),
    },
  });
  private readonly keys = new Map<string, string>();
  private readonly tools = new Map<string, ExposedTool>();

  /** Brings the index to `tools`; `instructions` gives a server's own text. */
  sync(tools: readonly ExposedTool[], instructions: (server: string) => string | undefined): void {
    const seen = new Set<string>();
    for (const tool of tools) {
      seen.add(tool.name);
      const doc = toolDocument(tool, instructions(tool.server));
      const key = documentKey(doc);
      this.tools.set(tool.name, tool);
      const known = this.keys.get(tool.name);
      if (known === key) continue;
      if (known !== undefined) this.mini.discard(tool.name);
      this.mini.add(doc);
      this.keys.set(tool.name, key);
    }
    for (const name of [...this.keys.keys()]) {
      if (seen.has(name)) continue;
      this.mini.discard(name);
      this.keys.delete(name);
      this.tools.delete(name);
    }
  }

  /** The `limit` best matches for `query`, best first; none for a query with no word that says anything. */
  search(query: string, limit: number): ToolSearchHit[] {
    const asked = words(query);
    if (asked.length === 0) return [];
    const out: ToolSearchHit[] = [];
    for (const hit of this.mini.search(withSynonyms(asked).join(' '))) {
      const tool = this.tools.get(String(hit.id));
      if (!tool) continue;
      out.push({
        name: tool.name,
        ...(tool.description !== undefined ? { description: tool.description } : {}),
        inputSchema: { ...tool.inputSchema, type: 'object' },
        score: Math.round(hit.score * 1000) / 1000,
      });
      if (out.length >= limit) break;
    }
    return out;
  }

  get size(): number {
    return this.keys.size;
  }
}

/**
 * The words people and tools use for the same thing in developer tooling, both ways: a query with one also looks
 * for the other (a folder is a directory, a PR a pull request). Few and general on purpose.
 */
const SYNONYMS: ReadonlyArray<readonly string[]> = [
  ['folder', 'directory'],
  ['repo', 'repository'],
  ['pr', 'pull request'],
  ['mr', 'merge request'],
  ['bug', 'issue'],
  ['picture', 'photo', 'image'],
  ['remove', 'delete'],
].map((group) => group.map((w) => words(w).join(' ')));

function withSynonyms(asked: readonly string[]): string[] {
  const out = [...asked];
  const text = ` ${asked.join(' ')} `;
  for (const group of SYNONYMS) {
    if (!group.some((w) => text.includes(` ${w} `))) continue;
    for (const w of group) if (!text.includes(` ${w} `)) out.push(w);
  }
  return out;
}
