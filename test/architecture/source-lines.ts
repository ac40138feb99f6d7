import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sourceFiles, stripComments } from './source-imports.js';

/** `file:line: the line` for every line under `dir` that `pattern` matches, comments left out. */
export function sourceLines(pattern: RegExp, dir = 'src', root = process.cwd()): string[] {
  return sourceFiles(root, dir).flatMap((file) =>
    stripComments(readFileSync(join(root, file), 'utf8'))
      .split('\n')
      .flatMap((line, i) => (pattern.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
  );
}
