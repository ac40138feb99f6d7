import { dirname, join, normalize } from 'node:path';
import type { LayerTable } from './layer-table.js';
import type { SourceImport } from './source-imports.js';

const MACHINE_PACKAGES = new Set(['xstate']);

/** The folder under src/ a repository path is in (`src/registry/naming.ts` → `registry`); `''` for src/ itself. */
export function folderOf(path: string): string | undefined {
  const m = /^src\/(?:([a-z-]+)\/)?/.exec(path);
  if (!m) return undefined;
  return m[1] ?? '';
}

/** Where a relative specifier points, as a repository path; undefined for a package or `node:` module. */
export function target(imp: SourceImport): string | undefined {
  if (!imp.specifier.startsWith('.')) return undefined;
  return normalize(join(dirname(imp.file), imp.specifier));
}

/**
 * Every import that breaks the rules, one line each naming file, line and import: a folder edge the table does
 * not allow, src/index.ts reaching into src/cli/, and what src/machines/ may not import. An empty list is a pass.
 */
export function importProblems(imports: readonly SourceImport[], table: LayerTable): string[] {
  const problems: string[] = [];
  const say = (imp: SourceImport, why: string) =>
    problems.push(`${imp.file}:${imp.line} imports '${imp.specifier}': ${why}`);
  for (const imp of imports) {
    const from = folderOf(imp.file);
    if (from === undefined) continue;
    const to = target(imp);
    if (from === 'machines' && to === undefined && !MACHINE_PACKAGES.has(imp.specifier)) {
      say(imp, 'src/machines may import xstate and its own files only');
    }
    if (imp.specifier === 'node:child_process' || imp.specifier === 'child_process') {
      if (from !== 'process') say(imp, 'only src/process starts processes');
    }
    if (to === undefined) continue;
    const into = folderOf(to);
    if (into === undefined) {
      say(imp, 'reaches outside src/');
      continue;
    }
    if (into === from) continue;
    if (from === '') {
      if (into === 'cli') say(imp, 'the library API never includes the program (src/cli)');
      continue;
    }
    if (!table.has(from)) {
      say(imp, `src/${from}/ has no row in the folder table of docs/architecture.md`);
    } else if (!table.get(from)?.has(into)) {
      say(imp, `src/${from}/ may not import src/${into}/ (docs/architecture.md)`);
    }
  }
  return problems;
}

/** Calls of a timer in a file's comment-free text, one line each (machines run on the actor system's clock). */
export function timerCalls(file: string, code: string): string[] {
  const out: string[] = [];
  code.split('\n').forEach((text, i) => {
    const m = /\b(setTimeout|setInterval|setImmediate)\s*\(/.exec(text);
    if (m)
      out.push(`${file}:${i + 1} calls ${m[1]}: machines use delayed events on the actor system's clock`);
  });
  return out;
}
