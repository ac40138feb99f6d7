import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sourceFiles, stripComments } from './source-imports.js';

const root = process.cwd();
const sources = sourceFiles(root, 'src').map((file) => ({
  file,
  text: stripComments(readFileSync(join(root, file), 'utf8')),
}));

/** `file:line: the line` for every match of `pattern` in the source, comments left out. */
function findings(pattern: RegExp): string[] {
  return sources.flatMap(({ file, text }) =>
    text.split('\n').flatMap((line, i) => (pattern.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
  );
}

// A call's outcome is data with a code (src/protocol/call-outcome.ts); `ERROR: …` is text for people, rendered once.
describe('ERROR: text is rendered, never read back', () => {
  it('nothing in src/ decides by matching ERROR text', () => {
    expect(findings(/startsWith\(\s*['"`]ERROR/)).toEqual([]);
    expect(findings(/\/\^\\?ERROR/)).toEqual([]);
    expect(findings(/(includes|indexOf|match|test)\(\s*['"`]ERROR/)).toEqual([]);
  });

  it('one string literal in src/ spells the ERROR: prefix: the one every rendering uses', () => {
    const spelled = findings(/['"`]ERROR:/).map((f) => f.replace(/:\d+:/, ':'));
    expect(spelled).toEqual(["src/framing/flatten.ts: export const ERROR_PREFIX = 'ERROR: ';"]);
  });

  it('sees what it looks for: the patterns match the code they forbid', () => {
    expect(/startsWith\(\s*['"`]ERROR/.test("if (result.startsWith('ERROR: unknown tool')) {")).toBe(true);
    expect(/\/\^\\?ERROR/.test("if (/^ERROR: tool '.*' timed out/.test(text)) return;")).toBe(true);
    expect(/['"`]ERROR:/.test("return 'ERROR: supervisor is stopped';")).toBe(true);
  });
});
