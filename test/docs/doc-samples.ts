import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A fenced block of README.md or docs/*.md with the marker on the line before it: `<!-- sample: GROUP/FILE -->`
 * makes it a file of a sample (the files of a group are written into one directory and run there), and
 * `<!-- declaration -->` says a `ts` block states a type rather than code to run.
 */
export interface DocBlock {
  doc: string;
  line: number;
  lang: string;
  marker: { kind: 'sample'; group: string; file: string } | { kind: 'declaration' } | undefined;
  code: string;
}

const FENCE = /^(\s*)```(\S*)/;
const SAMPLE = /^<!-- sample: ([a-z0-9-]+)\/([A-Za-z0-9._-]+) -->$/;
const DECLARATION = /^<!-- declaration -->$/;

/** The markdown files the samples live in, relative to the repository root. */
export function docFiles(root: string): string[] {
  const docs = readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`);
  return ['README.md', ...docs];
}

/** Every fenced block of one markdown file, with its marker if it has one. */
export function docBlocks(root: string, doc: string): DocBlock[] {
  const lines = readFileSync(join(root, doc), 'utf8').split('\n');
  const blocks: DocBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]!);
    if (!open) continue;
    const indent = open[1]!;
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && lines[j]!.trim() !== '```') body.push(lines[j++]!.slice(indent.length));
    const before = (lines[i - 1] ?? '').trim();
    const sample = SAMPLE.exec(before);
    const marker = sample
      ? { kind: 'sample' as const, group: sample[1]!, file: sample[2]! }
      : DECLARATION.test(before)
        ? { kind: 'declaration' as const }
        : undefined;
    blocks.push({ doc, line: i + 1, lang: open[2]!, marker, code: `${body.join('\n')}\n` });
    i = j;
  }
  return blocks;
}
