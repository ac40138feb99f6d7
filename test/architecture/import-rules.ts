import { dirname, join, normalize } from 'node:path';
import type { LayerTable, PackageUse } from './layer-table.js';
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

/** The package an import names (`@scope/name/sub.js` → `@scope/name`), or undefined for a relative or `node:` one. */
export function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('node:')) return undefined;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** Imports of a package a folder's row does not name, or names for types only and the import is not. */
export function packageProblems(
  imports: readonly SourceImport[],
  rules: ReadonlyMap<string, ReadonlyMap<string, PackageUse>>,
): string[] {
  const problems: string[] = [];
  for (const imp of imports) {
    const folder = folderOf(imp.file);
    const uses = folder === undefined ? undefined : rules.get(folder);
    const pkg = packageOf(imp.specifier);
    if (!uses || pkg === undefined) continue;
    const use = uses.get(pkg);
    const where = `${imp.file}:${imp.line} imports '${imp.specifier}'`;
    if (use === undefined) problems.push(`${where}: src/${folder}/ may use only the packages its row names`);
    else if (use === 'types' && !imp.typeOnly)
      problems.push(`${where}: src/${folder}/ may import it for types only`);
  }
  return problems;
}

/**
 * Imports from src/gateway/ into src/supervisor/ that pass the facade: the gateway is typed against the fleet a
 * host sees, so it may reach only the supervisor files the package exports from (`exported`), and the one
 * input-round loop it shares with the supervisor.
 */
export function gatewayReach(imports: readonly SourceImport[], exported: ReadonlySet<string>): string[] {
  const problems: string[] = [];
  for (const imp of imports) {
    if (folderOf(imp.file) !== 'gateway') continue;
    const to = target(imp);
    if (to === undefined || folderOf(to) !== 'supervisor') continue;
    const file = to.replace(/\.js$/, '.ts');
    if (exported.has(file) || file === 'src/supervisor/input-required/rounds-loop.ts') continue;
    problems.push(
      `${imp.file}:${imp.line} imports '${imp.specifier}': src/gateway/ reaches src/supervisor/ only through what src/index.ts exports of it`,
    );
  }
  return problems;
}
