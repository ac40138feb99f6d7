import { describe, expect, it } from 'vitest';
import { jsonSizeWithin } from '../../src/framing/json-size.js';
import {
  LIST_PAGE_MAX_BYTES,
  NOTIFICATION_FIELD_MAX_BYTES,
  NOTIFICATION_MAX_BYTES,
  summarizeMessage,
} from '../../src/framing/line-summary.js';
import { describeMessageCut } from '../../src/framing/message-cut.js';

const bytesOf = (v: unknown) => Buffer.byteLength(JSON.stringify(v));

describe('jsonSizeWithin', () => {
  it('gives the exact UTF-8 size up to the limit and nothing past it', () => {
    const v = { a: ['é', 1, null, true], b: { c: '🎉' } };
    expect(jsonSizeWithin(v, 1000)).toBe(bytesOf(v));
    expect(jsonSizeWithin(v, bytesOf(v))).toBe(bytesOf(v));
    expect(jsonSizeWithin(v, bytesOf(v) - 1)).toBeUndefined();
    expect(
      jsonSizeWithin(
        Array.from({ length: 1e6 }, () => 0),
        1000,
      ),
    ).toBeUndefined();
  });
});

describe('summarizeMessage', () => {
  it('leaves messages within the caps alone', () => {
    const params = { level: 'info', data: 'x'.repeat(NOTIFICATION_MAX_BYTES - 100) };
    expect(
      summarizeMessage({ jsonrpc: '2.0', method: 'notifications/message', params }, 70_000),
    ).toBeUndefined();
    const page = { tools: [{ name: 'a' }], nextCursor: 'c' };
    expect(summarizeMessage({ jsonrpc: '2.0', id: 1, result: page }, LIST_PAGE_MAX_BYTES)).toBeUndefined();
    const read = { contents: [{ uri: 'u', text: 'x'.repeat(3 * LIST_PAGE_MAX_BYTES) }] };
    expect(
      summarizeMessage({ jsonrpc: '2.0', id: 1, result: read }, 4 * LIST_PAGE_MAX_BYTES),
    ).toBeUndefined();
  });

  it('keeps the small params fields of a large notification, in order, and names the others', () => {
    const params = {
      level: 'error',
      data: Array.from({ length: 20_000 }, (_, i) => ({ i })),
      logger: 'db',
      note: 'n'.repeat(NOTIFICATION_FIELD_MAX_BYTES + 1),
    };
    const out = summarizeMessage(
      { jsonrpc: '2.0', method: 'notifications/message', params },
      bytesOf(params),
    );
    expect(out?.message).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/message',
      params: { level: 'error', logger: 'db' },
    });
    expect(out?.cut).toEqual({
      kind: 'notification',
      method: 'notifications/message',
      bytes: bytesOf(params),
      dropped: ['data', 'note'],
    });
    expect(describeMessageCut(out!.cut)).toMatch(/notifications\/message of .* without data, note/);
  });

  it('keeps a large list page to the first items that fit 1 MiB, ending the listing there', () => {
    const tools = Array.from({ length: 3000 }, (_, i) => ({ name: `t${i}`, description: 'd'.repeat(500) }));
    const result = { tools, nextCursor: 'next', ttlMs: 5 };
    const out = summarizeMessage({ jsonrpc: '2.0', id: 4, result }, bytesOf(result));
    const kept = (out!.message as { result: { tools: unknown[] } }).result;
    expect(kept.tools).toEqual(tools.slice(0, kept.tools.length));
    expect(bytesOf(kept.tools)).toBeLessThanOrEqual(LIST_PAGE_MAX_BYTES);
    expect(kept.tools.length).toBeGreaterThan(1900);
    expect(kept).toEqual({ ttlMs: 5, tools: kept.tools });
    expect(out?.cut).toMatchObject({ kind: 'list', field: 'tools', kept: kept.tools.length, total: 3000 });
    expect(out?.cut.dropped).toEqual(['nextCursor']);
  });
});

describe('summarizeMessage and odd keys', () => {
  it('keeps a __proto__ field of a cut notification as a field', () => {
    const line = `{"jsonrpc":"2.0","method":"n","params":{"__proto__":{"x":1},"big":"${'b'.repeat(70_000)}"}}`;
    const message = JSON.parse(line);
    const out = summarizeMessage(message, line.length);
    expect(JSON.parse(JSON.stringify(out!.message))).toEqual(
      JSON.parse('{"jsonrpc":"2.0","method":"n","params":{"__proto__":{"x":1}}}'),
    );
    expect(out!.cut.dropped).toEqual(['big']);
  });
});
