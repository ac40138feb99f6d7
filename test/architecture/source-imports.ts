import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** One import (or re-export, or literal dynamic import / require) in a source file. */
export interface SourceImport {
  /** The file, relative to the repository root (`src/registry/naming.ts`). */
  file: string;
  line: number;
  specifier: string;
  /** `import type …` / `export type …`: gone once compiled. */
  typeOnly: boolean;
}

/** Every .ts/.js/.mjs file under `dir`, as paths relative to `root`, sorted. */
export function sourceFiles(root: string, dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.(ts|js|mjs)$/.test(entry.name)) out.push(relative(root, path));
    }
  };
  walk(join(root, dir));
  return out.sort();
}

/**
 * The text with every comment blanked (newlines kept, so offsets keep their line), strings and template literals
 * left as they are: an import named in a comment is not an import, and `//` inside a string is not a comment.
 */
export function stripComments(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i] as string;
    const next = text[i + 1];
    if (c === '/' && next === '/') {
      const end = text.indexOf('\n', i);
      const stop = end < 0 ? text.length : end;
      out += ' '.repeat(stop - i);
      i = stop;
    } else if (c === '/' && next === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end < 0 ? text.length : end + 2;
      out += text.slice(i, stop).replace(/[^\n]/g, ' ');
      i = stop;
    } else if (c === "'" || c === '"' || c === '`') {
      let j = i + 1;
      while (j < text.length && text[j] !== c) j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else {
      out += c;
      i += 1;
    }
  }
  return out;
}

// Statements start a line (the formatter puts them there); a dynamic import or require may sit anywhere.
const STATIC = /^[ \t]*(import|export)(\s+type)?\b[^;'"`]*?\bfrom\s*(['"])([^'"]+)\3/gm;
const BARE = /^[ \t]*import\s*(['"])([^'"]+)\1/gm;
const DYNAMIC = /\b(?:import|require)\s*\(\s*(['"])([^'"]+)\1\s*\)/g;

/** The imports of one file's text, in order of appearance. */
export function importsOf(file: string, text: string): SourceImport[] {
  const code = stripComments(text);
  const lineAt = (index: number) => code.slice(0, index).split('\n').length;
  const found: Array<SourceImport & { at: number }> = [];
  for (const m of code.matchAll(STATIC)) {
    found.push({
      file,
      line: lineAt(m.index),
      specifier: m[4] as string,
      typeOnly: m[2] !== undefined,
      at: m.index,
    });
  }
  for (const re of [BARE, DYNAMIC]) {
    for (const m of code.matchAll(re)) {
      found.push({ file, line: lineAt(m.index), specifier: m[2] as string, typeOnly: false, at: m.index });
    }
  }
  return found.sort((a, b) => a.at - b.at).map(({ at: _at, ...rest }) => rest);
}

/** Every import of every source file under `dir`. */
export function readImports(root: string, dir: string): SourceImport[] {
  return sourceFiles(root, dir).flatMap((file) => importsOf(file, readFileSync(join(root, file), 'utf8')));
}
