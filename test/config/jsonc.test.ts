import { describe, expect, it } from 'vitest';
import { blankJsonComments, isJsonSource } from '../../src/config/jsonc.js';

describe('blankJsonComments', () => {
  it('blanks line and block comments, keeping every position and line break', () => {
    const text = '{\n  // a comment\n  "a": /* inline */ 1, /* two\nlines */ "b": 2\n}';
    const out = blankJsonComments(text);
    expect(out).toHaveLength(text.length);
    expect(out.split('\n').length).toBe(text.split('\n').length);
    expect(JSON.parse(out)).toEqual({ a: 1, b: 2 });
    expect(out.indexOf('"b"')).toBe(text.indexOf('"b"'));
  });

  it('leaves comment-like text inside strings alone, escaped quotes included', () => {
    const text = '{"url": "http://x/*y*/", "q": "say \\"//hi\\"" } // end';
    expect(JSON.parse(blankJsonComments(text))).toEqual({ url: 'http://x/*y*/', q: 'say "//hi"' });
  });

  it('keeps CRLF line ends', () => {
    expect(blankJsonComments('1 // x\r\n2')).toBe('1     \r\n2');
  });
});

describe('isJsonSource', () => {
  it('is true for .json and .jsonc only', () => {
    expect(isJsonSource('/a/mcp.json')).toBe(true);
    expect(isJsonSource('x.JSONC')).toBe(true);
    expect(isJsonSource('x.yaml')).toBe(false);
    expect(isJsonSource('<config>')).toBe(false);
  });
});
