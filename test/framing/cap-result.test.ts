import { describe, expect, it } from 'vitest';
import { capToolResult, capToolResultData } from '../../src/framing/cap-result.js';
import { utf8Length } from '../../src/framing/utf8-cap.js';

const big = (n: number) => 'x'.repeat(n);
const wire = (r: unknown) => utf8Length(JSON.stringify(r));

describe('capToolResultData', () => {
  it('keeps structuredContent whole when it fits in what the blocks left', () => {
    const result = { content: [{ type: 'text', text: 'ok' }], structuredContent: { n: 1 } };
    expect(capToolResultData(result, { maxBytes: 100, structuredRequired: true })).toEqual({
      ok: true,
      result,
    });
  });

  it('drops structuredContent that does not fit and says so, when the tool has no outputSchema', () => {
    const sc = { content: big(5000) };
    const out = capToolResultData(
      { content: [{ type: 'text', text: big(5000) }], structuredContent: sc },
      {
        maxBytes: 1000,
      },
    );
    expect(out.ok).toBe(true);
    if (!out.ok) return;
    expect(out.result.structuredContent).toBeUndefined();
    expect(out.result.content.at(-1)).toEqual({
      type: 'text',
      text: `[structured content of ${JSON.stringify(sc).length} bytes omitted]`,
    });
    expect(out.result.content[0]!.text).toMatch(/… \[truncated \d+ bytes\]$/);
  });

  it('makes a tool with an outputSchema TOO_LARGE, naming size and cap, still carrying the capped text', () => {
    const sc = { content: big(5000) };
    const out = capToolResultData(
      { content: [{ type: 'text', text: big(5000) }], structuredContent: sc, _meta: { t: 1 } },
      { maxBytes: 1000, structuredRequired: true },
    );
    expect(out.ok).toBe(false);
    if (out.ok || out.code !== 'TOO_LARGE') throw new Error(`expected TOO_LARGE, got ${JSON.stringify(out)}`);
    const bytes = JSON.stringify(sc).length;
    expect(out.message).toBe(
      `result too large: structured content of ${bytes} bytes is over the result cap of 1000 bytes`,
    );
    expect(out.result.isError).toBe(true);
    expect(out.result.structuredContent).toBeUndefined();
    expect(out.result._meta).toEqual({ t: 1 });
    expect(out.result.content[0]).toEqual({ type: 'text', text: `ERROR: ${out.message}` });
    expect(out.result.content[1]!.text).toMatch(/^x+… \[truncated \d+ bytes\]$/);
  });

  it('never keeps structuredContent beside a text that was cut, however small it is', () => {
    const out = capToolResult(
      { content: [{ type: 'text', text: big(200) }], structuredContent: {} },
      { maxBytes: 100 },
    );
    expect(out.structuredContent).toBeUndefined();
    expect(out.content.at(-1)).toEqual({ type: 'text', text: '[structured content of 2 bytes omitted]' });
  });

  it('a server error result over the cap loses its structuredContent but stays its own error', () => {
    const out = capToolResultData(
      { isError: true, content: [{ type: 'text', text: 'bad' }], structuredContent: { e: big(500) } },
      { maxBytes: 100, structuredRequired: true },
    );
    expect(out.ok).toBe(true);
    if (out.ok) expect(out.result.isError).toBe(true);
  });

  it('replaces images, audio and blobs that do not fit by a line naming them, within the cap', () => {
    const data = Buffer.alloc(30_000, 7).toString('base64');
    const result = {
      content: [
        { type: 'image', data, mimeType: 'image/png' },
        { type: 'audio', data, mimeType: 'audio/wav' },
        { type: 'resource', resource: { uri: 'file:///b.bin', blob: data, mimeType: 'application/pdf' } },
        { type: 'text', text: 'after' },
      ],
    };
    const out = capToolResult(result, { maxBytes: 1000 });
    expect(out.content).toEqual([
      { type: 'text', text: '[image: image/png, 29.3 KiB, omitted: over the result cap of 1000 bytes]' },
      { type: 'text', text: '[audio: audio/wav, 29.3 KiB, omitted: over the result cap of 1000 bytes]' },
      {
        type: 'text',
        text: '[resource: file:///b.bin, application/pdf, 29.3 KiB, omitted: over the result cap of 1000 bytes]',
      },
      { type: 'text', text: 'after' },
    ]);
    expect(wire(out)).toBeLessThan(1000);
  });

  it('keeps a whole result of a megabyte and more within its cap as sent', () => {
    const data = Buffer.alloc(1 << 20, 1).toString('base64');
    const result = {
      content: [
        { type: 'text', text: big(1 << 20) },
        { type: 'image', data, mimeType: 'image/png' },
        { type: 'resource', resource: { uri: 'file:///t', text: big(1 << 20) } },
      ],
      structuredContent: { text: big(1 << 20) },
    };
    const out = capToolResult(result, { maxBytes: 64 * 1024, structuredRequired: true });
    expect(wire(out)).toBeLessThan(64 * 1024 + 1024);
  });
});
