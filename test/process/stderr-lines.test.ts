import { describe, expect, it } from 'vitest';
import { STDERR_LINE_BYTES, type StderrLine, StderrLines } from '../../src/process/stderr-lines.js';

function collect(opts: { perSecond?: number; burst?: number; now?: () => number } = {}) {
  const lines: StderrLine[] = [];
  const splitter = new StderrLines((l) => lines.push(l), opts);
  return { lines, splitter };
}

describe('StderrLines', () => {
  it('splits chunks into lines, joining a line cut across chunks and dropping CR', () => {
    const { lines, splitter } = collect();
    splitter.push(Buffer.from('one\r\ntw'));
    splitter.push(Buffer.from('o\nthr'));
    expect(lines.map((l) => l.line)).toEqual(['one', 'two']);
    splitter.end();
    expect(lines.map((l) => l.line)).toEqual(['one', 'two', 'thr']);
  });

  it('keeps a UTF-8 character split between chunks whole', () => {
    const { lines, splitter } = collect();
    const bytes = Buffer.from('é\n');
    splitter.push(bytes.subarray(0, 1));
    splitter.push(bytes.subarray(1));
    expect(lines).toEqual([{ line: 'é', dropped: 0 }]);
  });

  it('cuts a line longer than the bound and holds no more than the bound for it', () => {
    const { lines, splitter } = collect();
    const long = 'x'.repeat(STDERR_LINE_BYTES * 3);
    for (let i = 0; i < long.length; i += 1000) splitter.push(Buffer.from(long.slice(i, i + 1000)));
    splitter.push(Buffer.from('\nnext\n'));
    expect(lines).toHaveLength(2);
    expect(lines[0]!.line).toBe(`${'x'.repeat(STDERR_LINE_BYTES)} […]`);
    expect(lines[1]!.line).toBe('next');
  });

  it('passes on the burst, counts what the rate refuses, and reports the count on the next line', () => {
    let t = 0;
    const { lines, splitter } = collect({ perSecond: 10, burst: 3, now: () => t });
    splitter.push(Buffer.from('a\nb\nc\nd\ne\n'));
    expect(lines.map((l) => l.line)).toEqual(['a', 'b', 'c']);
    t += 100; // one token back
    splitter.push(Buffer.from('f\n'));
    expect(lines.at(-1)).toEqual({ line: 'f', dropped: 2 });
    splitter.push(Buffer.from('g\n'));
    expect(lines).toHaveLength(4);
  });
});
