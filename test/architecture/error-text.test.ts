import { describe, expect, it } from 'vitest';
import { sourceLines as findings } from './source-lines.js';

// A call's outcome is data with a code (src/protocol/call-outcome.ts); `ERROR: …` is text for people, rendered once.
describe('ERROR: text is rendered, never read back', () => {
  it('nothing in src/ decides by matching ERROR text', () => {
    expect(findings(/startsWith\(\s*['"`]ERROR/)).toEqual([]);
    expect(findings(/\/\^\\?ERROR/)).toEqual([]);
    expect(findings(/(includes|indexOf|match|test)\(\s*['"`]ERROR/)).toEqual([]);
  });

  it('one string literal in src/ spells the ERROR: prefix: the one every rendering uses', () => {
    const spelled = findings(/['"`]ERROR:/).map((f) => f.replace(/:\d+:/, ':'));
    expect(spelled).toEqual(["src/framing/read-result.ts: export const ERROR_PREFIX = 'ERROR: ';"]);
  });

  it('sees what it looks for: the patterns match the code they forbid', () => {
    expect(/startsWith\(\s*['"`]ERROR/.test("if (result.startsWith('ERROR: unknown tool')) {")).toBe(true);
    expect(/\/\^\\?ERROR/.test("if (/^ERROR: tool '.*' timed out/.test(text)) return;")).toBe(true);
    expect(/['"`]ERROR:/.test("return 'ERROR: supervisor is stopped';")).toBe(true);
  });
});
