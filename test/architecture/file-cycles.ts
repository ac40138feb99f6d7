import type { SourceImport } from './source-imports.js';

/** The file a relative specifier names (`./x.js` → `src/a/x.ts` when only the `.ts` exists), or undefined. */
function fileOf(from: string, specifier: string, files: ReadonlySet<string>): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const parts = from.split('/').slice(0, -1);
  for (const seg of specifier.split('/')) {
    if (seg === '..') parts.pop();
    else if (seg !== '.') parts.push(seg);
  }
  const path = parts.join('/');
  for (const candidate of [path, path.replace(/\.js$/, '.ts'), path.replace(/\.js$/, '.mjs')]) {
    if (files.has(candidate)) return candidate;
  }
  return undefined;
}

/**
 * Every circle of imports between files (type imports count: a type circle is a knot a reader has to untie all
 * the same), each as its files sorted; strongly connected components of more than one file, or a file that
 * imports itself.
 */
export function fileCycles(files: readonly string[], imports: readonly SourceImport[]): string[][] {
  const known = new Set(files);
  const edges = new Map<string, Set<string>>(files.map((f) => [f, new Set()]));
  for (const imp of imports) {
    const to = fileOf(imp.file, imp.specifier, known);
    if (to !== undefined) edges.get(imp.file)?.add(to);
  }
  // Tarjan's strongly connected components, iterative so a long chain cannot overflow the stack.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  let next = 0;
  for (const start of files) {
    if (index.has(start)) continue;
    const work: Array<{ node: string; it: Iterator<string> }> = [];
    const open = (node: string) => {
      index.set(node, next);
      low.set(node, next);
      next += 1;
      stack.push(node);
      onStack.add(node);
      work.push({ node, it: (edges.get(node) ?? new Set<string>()).values() });
    };
    open(start);
    while (work.length > 0) {
      const top = work[work.length - 1] as { node: string; it: Iterator<string> };
      const step = top.it.next();
      if (!step.done) {
        const to = step.value;
        if (!index.has(to)) open(to);
        else if (onStack.has(to)) low.set(top.node, Math.min(low.get(top.node)!, index.get(to)!));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(top.node)!));
      if (low.get(top.node) !== index.get(top.node)) continue;
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop() as string;
        onStack.delete(member);
        component.push(member);
      } while (member !== top.node);
      if (component.length > 1 || edges.get(top.node)?.has(top.node)) cycles.push(component.sort());
    }
  }
  return cycles;
}
