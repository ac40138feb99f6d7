import { isMap, isNode, isPair, isScalar, isSeq, LineCounter, type Node, parseDocument, visit } from 'yaml';
import type { z } from 'zod';

/** One problem in a source file, located at the line and column a person would look at. */
export interface LocatedProblem {
  source: string;
  line: number;
  col: number;
  /** Dotted field path (`servers.files.restart.policy`), empty for the document itself. */
  path: string;
  message: string;
  /** What kind of problem, for programs (`DUPLICATE_KEY`, `ENOENT`, …); absent for a plain invalid value. */
  code?: string;
}

/** Formats a problem the way every error of this project prints it: `file:line:col path: message`. */
export function formatProblem(p: LocatedProblem): string {
  return `${p.source}:${p.line}:${p.col}${p.path ? ` ${p.path}` : ''}: ${p.message}`;
}

/** A parsed YAML (or JSON) document that can say where any path of it stands in the text. */
export interface LocatedDocument {
  /** The plain JS value of the document; `undefined` when syntax errors made it unusable. */
  value: unknown;
  /**
   * Syntax problems (bad YAML, duplicate keys), each with its position. When every one is a duplicate key the
   * document is still read (the last of the keys wins, as in JSON.parse), so the rest of it can be checked too.
   */
  problems: LocatedProblem[];
  /** Where `path` stands: the key when the path ends at a map key, the nearest existing ancestor otherwise. */
  locate(path: readonly PropertyKey[]): { line: number; col: number };
}

/** Parses YAML/JSON text keeping positions, so later validation errors can name `file:line:col`. */
export function parseLocatedYaml(text: string, source: string): LocatedDocument {
  const lineCounter = new LineCounter();
  // `logLevel: 'error'`: yaml would print a process warning for a list or map used as a key; that is reported
  // below as a located problem instead.
  const doc = parseDocument(text, {
    lineCounter,
    uniqueKeys: true,
    prettyErrors: false,
    strict: true,
    logLevel: 'error',
  });
  const at = (offset: number) => {
    const { line, col } = lineCounter.linePos(Math.max(0, Math.min(offset, text.length)));
    return { line, col };
  };
  const problems: LocatedProblem[] = [];
  // Warnings too: an unknown tag (`!env FOO`) would otherwise quietly become the plain string after it.
  for (const err of [...doc.errors, ...doc.warnings]) {
    const { line, col } = at(err.pos[0]);
    const message =
      err.code === 'DUPLICATE_KEY'
        ? 'duplicate key'
        : err.code === 'TAG_RESOLVE_FAILED'
          ? `${firstLine(err.message)} (only the standard YAML tags are understood; write the value without it)`
          : firstLine(err.message);
    problems.push({
      source,
      line,
      col,
      path: '',
      message,
      ...(err.code === 'DUPLICATE_KEY' ? { code: err.code } : {}),
    });
  }
  const readable = problems.every((p) => p.code === 'DUPLICATE_KEY');
  if (readable) {
    visit(doc, {
      Pair(_key, pair, ancestors) {
        if (!isNode(pair.key) || isScalar(pair.key)) return;
        const { line, col } = at(pair.key.range?.[0] ?? 0);
        const path = dotted(pathOf([...ancestors, pair]));
        problems.push({ source, line, col, path, message: 'a key must be a plain value, not a list or map' });
      },
    });
  }
  const locate = (path: readonly PropertyKey[]) => {
    let node: unknown = doc.contents;
    let best = isNode(node) && node.range ? node.range[0] : 0;
    for (const key of path) {
      if (isMap(node)) {
        // The last pair of a key is the one whose value counts (see `problems`).
        const pair = node.items.findLast(
          (p) => isPair(p) && isScalar(p.key) && String(p.key.value) === String(key),
        );
        if (!pair) break;
        const keyNode = pair.key as Node;
        if (keyNode.range) best = keyNode.range[0];
        node = pair.value;
      } else if (isSeq(node) && typeof key === 'number') {
        const item = node.items[key];
        if (!isNode(item)) break;
        if (item.range) best = item.range[0];
        node = item;
      } else {
        break;
      }
    }
    return at(best);
  };
  const value = problems.every((p) => p.code === 'DUPLICATE_KEY')
    ? doc.toJS({ maxAliasCount: 100 })
    : undefined;
  return { value, problems, locate };
}

/** Turns zod issues into located problems; an unknown key is located at that key, not at its parent. */
export function zodProblems(
  issues: readonly z.core.$ZodIssue[],
  doc: LocatedDocument,
  source: string,
): LocatedProblem[] {
  const out: LocatedProblem[] = [];
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const path = [...issue.path, key];
        out.push({ source, ...doc.locate(path), path: dotted(path), message: 'unknown key' });
      }
      continue;
    }
    out.push({ source, ...doc.locate(issue.path), path: dotted(issue.path), message: issue.message });
  }
  return out.sort((a, b) => a.line - b.line || a.col - b.col);
}

/** `['servers', 'files', 'args', 0]` → `servers.files.args[0]`. */
export function dotted(path: readonly PropertyKey[]): string {
  let s = '';
  for (const k of path) s += typeof k === 'number' ? `[${k}]` : s ? `.${String(k)}` : String(k);
  return s;
}

// The keys and indexes leading to a node, from the chain of its ancestors that yaml's `visit` passes.
function pathOf(chain: readonly unknown[]): PropertyKey[] {
  const out: PropertyKey[] = [];
  for (let i = 0; i < chain.length - 1; i++) {
    const node = chain[i];
    const next = chain[i + 1];
    if (isPair(node) && isScalar(node.key) && next === node.value) out.push(String(node.key.value));
    else if (isSeq(node)) out.push(node.items.indexOf(next as never));
  }
  return out;
}

function firstLine(message: string): string {
  const i = message.indexOf('\n');
  return (i < 0 ? message : message.slice(0, i)).replace(/ at line \d+, column \d+:?$/, '');
}
