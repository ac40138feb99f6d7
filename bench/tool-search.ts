// Tool search: how well `sup.searchTools` finds the tool a request means, over the tools of published MCP servers
// (bench/tool-search/corpus.ts) and queries written for them (queries.ts): recall@1, recall@5 and MRR; how long a
// search takes over 1,000 tools; and what `tools/list` costs a client with search on and off. Needs the npm
// registry once, to install the corpus. Run: npm run bench -- --one tool-search
import { pathToFileURL } from 'node:url';
import { toMcpTool } from '../src/gateway/gateway.js';
import { SEARCH_INSTRUCTIONS, searchToolDefinitions } from '../src/gateway/search/search-tools.js';
import type { ExposedTool } from '../src/registry/exposed-tool.js';
import { ToolIndex } from '../src/search/tool-index.js';
import { benchSupervisor, removeTrustStore } from './lib/fixture-fleet.js';
import { fmt, median, percentile } from './lib/stats.js';
import { markdownTable } from './lib/table.js';
import { corpusServers, installCorpus } from './tool-search/corpus.js';
import { QUERIES } from './tool-search/queries.js';

const progress = (what: string) => process.stderr.write(`tool-search: ${what}\n`);
/** Searches timed per query over the 1,000-tool index. */
const REPEATS = 30;

/** Tokens of a text, as the common rule of thumb for English and JSON has them: about four characters each. */
const tokens = (text: string) => Math.round(text.length / 4);

export async function runToolSearchBench(): Promise<void> {
  const modules = installCorpus(progress);
  const sup = benchSupervisor(corpusServers(modules));
  try {
    progress('starting the corpus servers');
    await sup.start();
    const down = sup.status().filter((s) => s.state !== 'ready');
    if (down.length > 0)
      progress(`not ready (left out): ${down.map((s) => `${s.id} ${s.state}`).join(', ')}`);
    const tools = sup.listTools();
    const missing = QUERIES.filter(([, want]) => !sup.getTool(want)).map(([, want]) => want);
    if (missing.length > 0)
      progress(`expected tools the corpus lacks (counted as misses): ${missing.join(', ')}`);

    // Quality: the rank of the expected tool among the first 50.
    const ranks = QUERIES.map(([query, want]) => {
      const at = sup.searchTools(query, { limit: 50 }).findIndex((h) => h.name === want);
      return at < 0 ? Number.POSITIVE_INFINITY : at + 1;
    });
    const share = (ok: (r: number) => boolean) => ranks.filter(ok).length / ranks.length;
    const mrr = ranks.reduce((s, r) => s + (Number.isFinite(r) ? 1 / r : 0), 0) / ranks.length;
    console.log(
      `${tools.length} tools of ${sup.status().length} published servers; ${QUERIES.length} queries\n`,
    );
    console.log(
      markdownTable(
        ['recall@1', 'recall@5', 'MRR'],
        [[fmt(share((r) => r <= 1)), fmt(share((r) => r <= 5)), fmt(mrr)]],
      ),
    );
    const misses = QUERIES.flatMap(([query, want], i) =>
      (ranks[i] ?? 0) > 5
        ? [
            [
              query,
              want,
              Number.isFinite(ranks[i]) ? String(ranks[i]) : '>50',
              sup
                .searchTools(query, { limit: 3 })
                .map((h) => h.name)
                .join(', '),
            ],
          ]
        : [],
    );
    if (misses.length > 0) {
      console.log('\nNot in the first five:\n');
      console.log(markdownTable(['query', 'expected', 'rank', 'first three'], misses));
    }

    // Speed: the corpus copied under other server ids up to 1,000 tools, one index, every query timed.
    const many: ExposedTool[] = [];
    for (let copy = 0; many.length < 1000; copy++)
      for (const t of tools) {
        if (many.length >= 1000) break;
        const server = `${t.server}${copy}`;
        many.push({ ...t, server, name: `${server}.${t.tool}` });
      }
    const index = new ToolIndex();
    const built = performance.now();
    index.sync(many, () => undefined);
    const buildMs = performance.now() - built;
    const times: number[] = [];
    for (let r = 0; r < REPEATS; r++)
      for (const [query] of QUERIES) {
        const t0 = performance.now();
        index.search(query, 8);
        times.push(performance.now() - t0);
      }
    console.log(
      `\nSearch over ${many.length} tools (${times.length} searches; the index built once in ${fmt(buildMs, 1)} ms):\n`,
    );
    console.log(
      markdownTable(
        ['p50 ms', 'p99 ms', 'max ms'],
        [[fmt(median(times), 3), fmt(percentile(times, 99), 3), fmt(Math.max(...times), 3)]],
      ),
    );

    // Cost: the tools/list answer a client reads, with search off (every tool) and on (two tools).
    const list = (ts: readonly ExposedTool[]) => JSON.stringify({ tools: ts.map(toMcpTool) });
    const on = JSON.stringify({ tools: searchToolDefinitions() }) + SEARCH_INSTRUCTIONS;
    console.log(
      '\nWhat tools/list costs a client (tokens ≈ characters / 4; search on counts its instructions too):\n',
    );
    console.log(
      markdownTable(
        ['tools', 'search off: bytes', 'tokens', 'search on: bytes', 'tokens', 'on / off'],
        [tools, many].map((ts) => {
          const off = list(ts);
          return [
            String(ts.length),
            String(off.length),
            String(tokens(off)),
            String(on.length),
            String(tokens(on)),
            fmt(on.length / off.length, 3),
          ];
        }),
      ),
    );
  } finally {
    await sup.stop();
    removeTrustStore();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await runToolSearchBench();
