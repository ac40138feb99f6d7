import { describe, expect, it } from 'vitest';
import { type FrameTask, frameTask } from '../../src/workers/frame-task.js';
import { toolResultLine } from '../framing/helpers.js';

function split(line: string, at: number[], extra?: Partial<FrameTask>): FrameTask {
  const bytes = new TextEncoder().encode(line);
  const cuts = [0, ...at, bytes.length];
  const parts = cuts
    .slice(1)
    .map((end, i) => ({ buffer: bytes.slice(cuts[i], end).buffer, offset: 0, length: end - cuts[i]! }));
  return { parts, byteLength: bytes.length, ...extra };
}

describe('frameTask', () => {
  it('returns the decoded line when nothing is asked, joining parts split inside a character', () => {
    const line = '{"jsonrpc":"2.0","method":"m","params":{"s":"日本語"}}';
    expect(frameTask(split(line, [40, 41]))).toEqual({ kind: 'line', line });
  });

  it('flattens or caps a claimed result, and only for the sniffed id', () => {
    const line = toolResultLine(7, 5000);
    const text = frameTask(split(line, [100], { id: 7, request: { mode: 'text', maxBytes: 50 } }));
    expect(text).toMatchObject({ kind: 'tool-result', id: 7 });
    const capped = frameTask(split(line, [], { id: 7, request: { mode: 'result', maxBytes: 50 } }));
    expect(capped).toMatchObject({ kind: 'tool-result', id: 7, result: { content: [{ type: 'text' }] } });
    expect(frameTask(split(line, [], { id: 8, request: { mode: 'text', maxBytes: 50 } }))).toEqual({
      kind: 'parsed',
      message: JSON.parse(line),
    });
  });

  it('hands back a message of long strings parsed, and a dense one as its line for the main side', () => {
    const text = 'é'.repeat(100_000);
    const sparse = JSON.stringify({
      jsonrpc: '2.0',
      id: 3,
      result: { contents: [{ uri: 'file:///a', text }] },
    });
    expect(frameTask(split(sparse, [1000]))).toEqual({ kind: 'parsed', message: JSON.parse(sparse) });
    const contents = Array.from({ length: 5000 }, (_, i) => ({ uri: `file:///${i}`, text: `${i}` }));
    const dense = JSON.stringify({ jsonrpc: '2.0', id: 4, result: { contents } });
    expect(frameTask(split(dense, [1000]))).toEqual({ kind: 'line', line: dense });
  });

  it('calls non-JSON and broken lines noise, and blank lines nothing', () => {
    expect(frameTask(split('hello world', []))).toEqual({ kind: 'noise', line: 'hello world' });
    const broken = '{"jsonrpc":"2.0","id":7,"result":{';
    expect(frameTask(split(broken, [], { id: 7, request: { mode: 'text', maxBytes: 9 } }))).toEqual({
      kind: 'noise',
      line: broken,
    });
    expect(frameTask(split('   ', []))).toEqual({ kind: 'blank' });
  });
});

describe('frameTask on large notifications and list pages', () => {
  it('hands back a bounded copy and its cut, never the megabytes', () => {
    const params = { level: 'info', data: Array.from({ length: 50_000 }, (_, i) => ({ i, v: [i] })) };
    const line = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params });
    const out = frameTask(split(line, [70_000]));
    expect(out).toMatchObject({ kind: 'line', cut: { kind: 'notification', dropped: ['data'] } });
    expect(out.kind === 'line' && JSON.parse(out.line)).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/message',
      params: { level: 'info' },
    });
  });
});
