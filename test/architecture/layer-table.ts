import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Each folder under src/ and the folders it may import, as docs/architecture.md's table says. */
export type LayerTable = ReadonlyMap<string, ReadonlySet<string>>;

/**
 * Reads the folder table of docs/architecture.md: every row whose first cell is `src/<folder>/`, with the
 * `src/<folder>/` names of its "may import" cell (the last one). The doc is the one statement of the rules; the
 * test holds the code to it, so the two cannot drift apart.
 */
export function readLayerTable(root: string): LayerTable {
  const doc = readFileSync(join(root, 'docs/architecture.md'), 'utf8');
  const table = new Map<string, Set<string>>();
  for (const line of doc.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    const folder = /^`src\/([a-z-]+)\/`$/.exec(cells[1] ?? '')?.[1];
    if (folder === undefined) continue;
    const allowed = cells[cells.length - 2] ?? '';
    table.set(folder, new Set([...allowed.matchAll(/`src\/([a-z-]+)\/`/g)].map((m) => m[1] as string)));
  }
  return table;
}

/** How a folder may use a package: any import, or `import type` only. */
export type PackageUse = 'any' | 'types';

/**
 * The packages each row restricts its folder to — the names after "of packages" in its "may import" cell, each
 * `(types only)` where it says so. Rows that name no packages are not restricted.
 */
export function readPackageRules(root: string): ReadonlyMap<string, ReadonlyMap<string, PackageUse>> {
  const doc = readFileSync(join(root, 'docs/architecture.md'), 'utf8');
  const rules = new Map<string, Map<string, PackageUse>>();
  for (const line of doc.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    const folder = /^`src\/([a-z-]+)\/`$/.exec(cells[1] ?? '')?.[1];
    const allowed = cells[cells.length - 2] ?? '';
    const at = allowed.indexOf('of packages');
    if (folder === undefined || at < 0) continue;
    const part = allowed.slice(at).split(';')[0] as string;
    const uses = new Map<string, PackageUse>();
    for (const m of part.matchAll(/`([^`]+)`( \(types only\))?/g))
      uses.set(m[1] as string, m[2] ? 'types' : 'any');
    rules.set(folder, uses);
  }
  return rules;
}

/** A cycle among the table's allowed edges (as a path that returns to its start), or undefined. */
export function findCycle(table: LayerTable): string[] | undefined {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (node: string): string[] | undefined => {
    if (state.get(node) === 'done') return undefined;
    if (state.get(node) === 'open') return [...path.slice(path.indexOf(node)), node];
    state.set(node, 'open');
    path.push(node);
    for (const next of table.get(node) ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    path.pop();
    state.set(node, 'done');
    return undefined;
  };
  for (const node of table.keys()) {
    const cycle = visit(node);
    if (cycle) return cycle;
  }
  return undefined;
}
