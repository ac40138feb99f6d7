import { describe, expect, it } from 'vitest';
import { STDERR_LINE_BYTES, StderrLines } from '../../src/process/stderr-lines.js';

function collect() {
  const lines: string[] = [];
  const splitter = new StderrLines((l) => lines.push(l));
  return { lines, splitter };
}

describe('StderrLines', () => {
  it('splits chunks into lines, joining a line cut across chunks and dropping CR', () => {
    const { lines, splitter } = collect();
    splitter.push(Buffer.from('one\r\ntw'));
    splitter.push(Buffer.from('o\nthr'));
    expect(lines).toEqual(['one', 'two']);
    splitter.end();
    expect(lines).toEqual(['one', 'two', 'thr']);
  });

  it('keeps a UTF-8 character split between chunks whole', () => {
    const { lines, splitter } = collect();
    const bytes = Buffer.from('é\n');
    splitter.push(bytes.subarray(0, 1));
    splitter.push(bytes.subarray(1));
    expect(lines).toEqual(['é']);
  });

  it('cuts a line longer than the bound and holds no more than the bound for it', () => {
    const { lines, splitter } = collect();
    const long = 'x'.repeat(STDERR_LINE_BYTES * 3);
    for (let i = 0; i < long.length; i += 1000) splitter.push(Buffer.from(long.slice(i, i + 1000)));
    splitter.push(Buffer.from('\nnext\n'));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe(`${'x'.repeat(STDERR_LINE_BYTES)} […]`);
    expect(lines[1]).toBe('next');
  });

  it('passes on every line of a flood, however fast it comes', () => {
    const { lines, splitter } = collect();
    const text = Array.from({ length: 10_000 }, (_, i) => `line ${i}\n`).join('');
    splitter.push(Buffer.from(text));
    expect(lines).toHaveLength(10_000);
    expect(lines.at(-1)).toBe('line 9999');
  });
});
