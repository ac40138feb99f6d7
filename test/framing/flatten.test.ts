import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { capToolResult, flattenToolResult } from '../../src/framing/flatten.js';
import { isWellFormed, utf8Length } from '../../src/framing/utf8-cap.js';

const png = Buffer.alloc(30003, 7).toString('base64');

describe('flattenToolResult', () => {
  it('joins text blocks with newlines and ignores annotations', () => {
    const result = {
      content: [
        { type: 'text', text: 'one', annotations: { audience: ['user'] } },
        { type: 'text', text: 'two' },
      ],
    };
    expect(flattenToolResult(result)).toBe('one\ntwo');
  });

  it('replaces images and audio by placeholders with their decoded size, never base64', () => {
    const out = flattenToolResult({
      content: [
        { type: 'image', data: png, mimeType: 'image/png' },
        { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
        { type: 'image', data: 'AA==' },
      ],
    });
    expect(out).toBe('[image: image/png, 29.3 KiB]\n[audio: audio/wav, 3 B]\n[image: 1 B]');
    expect(out).not.toContain(png.slice(0, 16));
  });

  it('renders resources and resource links', () => {
    const out = flattenToolResult({
      content: [
        { type: 'resource', resource: { uri: 'file:///a.txt', text: 'hello from a' } },
        { type: 'resource', resource: { uri: 'file:///b.bin', mimeType: 'application/pdf', blob: png } },
        { type: 'resource_link', uri: 'file:///c.md', name: 'c.md' },
      ],
    });
    expect(out).toBe(
      'hello from a\n[resource: file:///b.bin, application/pdf, 29.3 KiB]\n[resource link: c.md <file:///c.md>]',
    );
  });

  it('shows an unknown block type as a placeholder', () => {
    expect(flattenToolResult({ content: [{ type: 'hologram', data: 1 }] })).toBe(
      '[unknown content: hologram]',
    );
  });

  it('adds structuredContent as compact JSON only when the result has no text at all', () => {
    const sc = { temperature: 21.5, unit: 'C' };
    const json = JSON.stringify(sc);
    expect(flattenToolResult({ content: [], structuredContent: sc })).toBe(json);
    expect(flattenToolResult({ structuredContent: sc })).toBe(json);
    expect(flattenToolResult({ content: [{ type: 'text', text: json }], structuredContent: sc })).toBe(json);
    // A server's text and its structuredContent are two forms of one answer: the text is not repeated as JSON.
    expect(
      flattenToolResult({ content: [{ type: 'text', text: 'It is warm.' }], structuredContent: sc }),
    ).toBe('It is warm.');
    const file = { type: 'resource', resource: { uri: 'file:///f', text: 'body' } };
    expect(flattenToolResult({ content: [file], structuredContent: sc })).toBe('body');
    const image = { type: 'image', data: 'AAAA', mimeType: 'image/png' };
    expect(flattenToolResult({ content: [image], structuredContent: sc })).toBe(
      `[image: image/png, 3 B]\n${json}`,
    );
  });

  it('prefixes failures with ERROR:', () => {
    expect(flattenToolResult({ isError: true, content: [{ type: 'text', text: 'no such file' }] })).toBe(
      'ERROR: no such file',
    );
    expect(flattenToolResult({ isError: true, content: [] })).toBe('ERROR: (no content)');
  });

  it('caps at maxBytes on a character boundary with the number of bytes dropped', () => {
    const text = '€'.repeat(100); // 300 bytes
    const out = flattenToolResult({ content: [{ type: 'text', text }] }, { maxBytes: 100 });
    expect(utf8Length(out)).toBeLessThanOrEqual(100);
    const m = /^(€*)… \[truncated (\d+) bytes\]$/.exec(out);
    expect(m).not.toBeNull();
    expect(utf8Length(m![1]!) + Number(m![2])).toBe(300);
  });

  it('keeps any capped output valid UTF-8 within maxBytes (property)', () => {
    const unit = fc.oneof(
      fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
      fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)),
    );
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit, maxLength: 80 }), { maxLength: 5 }),
        fc.boolean(),
        fc.integer({ min: 40, max: 400 }),
        (texts, isError, maxBytes) => {
          const out = flattenToolResult(
            { isError, content: texts.map((text) => ({ type: 'text', text })) },
            { maxBytes },
          );
          expect(isWellFormed(out)).toBe(true);
          expect(utf8Length(out)).toBeLessThanOrEqual(maxBytes);
          if (isError) expect(out.startsWith('ERROR: ')).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('explains malformed input instead of throwing', () => {
    expect(flattenToolResult(null)).toBe('ERROR: invalid tool result: expected an object, got null');
    expect(flattenToolResult('hi')).toBe('ERROR: invalid tool result: expected an object, got string');
    expect(flattenToolResult({})).toBe('ERROR: invalid tool result: missing content');
    expect(flattenToolResult({ content: 'x' })).toBe(
      'ERROR: invalid tool result: content is string, not an array',
    );
    expect(flattenToolResult({ content: [{ type: 'text', text: 'a' }, 5] })).toBe(
      'ERROR: invalid tool result: content[1] is number, not a content block',
    );
    expect(flattenToolResult({ content: [{ text: 'a' }] })).toBe(
      'ERROR: invalid tool result: content[0] has no type',
    );
    expect(flattenToolResult({ content: [{ type: 'image' }] })).toBe(
      'ERROR: invalid tool result: content[0] (image) has no base64 data',
    );
  });

  it('never throws on anything (property)', () => {
    const blockish = fc.oneof(
      fc.anything(),
      fc.record({
        type: fc.constantFrom('text', 'image', 'audio', 'resource', 'resource_link', 'x'),
        text: fc.anything(),
        data: fc.anything(),
        resource: fc.anything(),
        uri: fc.anything(),
      }),
    );
    fc.assert(
      fc.property(
        fc.oneof(
          fc.anything(),
          fc.record({
            content: fc.array(blockish),
            isError: fc.anything(),
            structuredContent: fc.anything(),
          }),
        ),
        (junk) => {
          expect(typeof flattenToolResult(junk)).toBe('string');
          expect(Array.isArray(capToolResult(junk).content)).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('capToolResult', () => {
  it('keeps blocks, isError and _meta, capping texts and binary blocks from one budget', () => {
    const image = { type: 'image', data: 'AAAA', mimeType: 'image/png' };
    const result = {
      isError: false,
      _meta: { trace: 't1' },
      content: [
        { type: 'text', text: 'a'.repeat(60) },
        image,
        { type: 'resource', resource: { uri: 'file:///r', text: 'b'.repeat(60) } },
        { type: 'text', text: '' },
      ],
    };
    // The image costs its 53 bytes of JSON as sent: the resource's text gets what is left of 153.
    const out = capToolResult(result, { maxBytes: 153 });
    expect(out.isError).toBe(false);
    expect(out._meta).toEqual({ trace: 't1' });
    expect(out.content[0]).toEqual({ type: 'text', text: 'a'.repeat(60) });
    expect(out.content[1]).toBe(image);
    const resource = out.content[2] as unknown as { resource: { uri: string; text: string } };
    expect(resource.resource.uri).toBe('file:///r');
    expect(resource.resource.text).toMatch(/^b+… \[truncated \d+ bytes\]$/);
    expect(utf8Length(resource.resource.text)).toBeLessThanOrEqual(40);
    expect(out.content[3]).toEqual({ type: 'text', text: '' });
  });

  it('does not modify its input', () => {
    const result = { content: [{ type: 'text', text: 'x'.repeat(500) }] };
    capToolResult(result, { maxBytes: 50 });
    expect(result.content[0]!.text).toHaveLength(500);
  });

  it('turns malformed input into an isError result with one ERROR text', () => {
    expect(capToolResult(42)).toEqual({
      isError: true,
      content: [{ type: 'text', text: 'ERROR: invalid tool result: expected an object, got number' }],
    });
    expect(capToolResult({ content: [null] }).isError).toBe(true);
  });
});
