import type { RouteTable } from '../registry/route-table.js';

/** What a search reads of the fleet's status: each server's id and the instructions it gave. */
export interface StatusLike {
  id: string;
  server?: { instructions?: string | undefined } | undefined;
}

import { ToolIndex, type ToolSearchHit } from './tool-index.js';

/** Hits a search answers by default, and at most. */
export const DEFAULT_SEARCH_LIMIT = 8;
export const MAX_SEARCH_LIMIT = 50;

/**
 * Search over the tools the fleet exposes now. The registry swaps in a new table whenever its tools change;
 * each search first brings the index to the table in place, so a tool added, removed or held back is found or
 * gone from the first search after the change — never a stale answer. Tools the trust gate holds back are not
 * in the table, so they are never found.
 */
export class FleetSearch {
  private readonly index = new ToolIndex();
  private indexed: RouteTable | undefined;

  constructor(
    private readonly table: () => RouteTable,
    private readonly status: () => readonly StatusLike[],
  ) {}

  search(query: string, limit = DEFAULT_SEARCH_LIMIT): ToolSearchHit[] {
    const table = this.table();
    if (table !== this.indexed) {
      const said = new Map(this.status().map((row) => [row.id, row.server?.instructions]));
      this.index.sync(table.tools, (server) => said.get(server));
      this.indexed = table;
    }
    const bounded = Math.max(1, Math.min(MAX_SEARCH_LIMIT, Math.floor(limit)));
    return this.index.search(query, bounded);
  }
}
