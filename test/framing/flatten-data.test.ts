import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  capToolResultData,
  ERROR_PREFIX,
  flattenToolResult,
  flattenToolResultData,
} from '../../src/framing/flatten.js';
import { truncationMarker, utf8Length } from '../../src/framing/utf8-cap.js';

describe('flattenToolResultData: a failure stays data', () => {
  it("marks a tool's own isError result TOOL_ERROR, with the text as its message", () => {
    expect(flattenToolResultData({ isError: true, content: [{ type: 'text', text: 'bad input' }] })).toEqual({
      ok: false,
      code: 'TOOL_ERROR',
      message: 'bad input',
    });
    expect(flattenToolResultData({ isError: true, content: [] })).toEqual({
      ok: false,
      code: 'TOOL_ERROR',
      message: '(no content)',
    });
  });

  it('marks something that is not a tool result INVALID_RESULT', () => {
    expect(flattenToolResultData(42)).toEqual({
      ok: false,
      code: 'INVALID_RESULT',
      message: 'invalid tool result: expected an object, got number',
    });
  });

  it('is a success for an ordinary result, whatever its text says', () => {
    expect(flattenToolResultData({ content: [{ type: 'text', text: 'ERROR: not really' }] })).toEqual({
      ok: true,
      text: 'ERROR: not really',
    });
  });

  it('leaves room in the cap for the ERROR: prefix, so the rendered failure fits it too', () => {
    const out = flattenToolResultData(
      { isError: true, content: [{ type: 'text', text: 'boom '.repeat(200) }] },
      { maxBytes: 64 },
    );
    expect(out).toMatchObject({ ok: false, code: 'TOOL_ERROR' });
    const rendered = ERROR_PREFIX + (out as { message: string }).message;
    expect(rendered.startsWith('ERROR: boom')).toBe(true);
    expect(utf8Length(rendered)).toBeLessThanOrEqual(64);
  });

  // Room for `ERROR: ` and the longest truncation marker, as in the fuzz test of flattenToolResult.
  const floor = utf8Length(ERROR_PREFIX) + utf8Length(truncationMarker(Number.MAX_SAFE_INTEGER));

  it('renders to flattenToolResult’s own text under any cap with room for the prefix (property)', () => {
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.array(fc.string({ unit: 'binary', maxLength: 300 }), { maxLength: 4 }),
        fc.integer({ min: floor, max: 2000 }),
        (isError, texts, maxBytes) => {
          const result = { isError, content: texts.map((text) => ({ type: 'text', text })) };
          const data = flattenToolResultData(result, { maxBytes });
          const rendered = data.ok ? data.text : ERROR_PREFIX + data.message;
          expect(data.ok).toBe(!isError);
          expect(utf8Length(rendered)).toBeLessThanOrEqual(maxBytes);
          const whole = flattenToolResult(result, { maxBytes });
          // Same text, except that a capped failure's marker may count one byte differently near a power of ten.
          if (rendered !== whole) {
            expect(isError).toBe(true);
            const [a, b] = [rendered, whole].map((t) => t.replace(/… \[truncated \d+ bytes\]$/, ''));
            const [short, long] = a!.length <= b!.length ? [a!, b!] : [b!, a!];
            expect(long.startsWith(short)).toBe(true);
            expect(utf8Length(long) - utf8Length(short)).toBeLessThanOrEqual(4);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('capToolResultData', () => {
  it('keeps a tool error inside the result (the caller reads isError) and refuses a non-result as data', () => {
    const failed = { isError: true, content: [{ type: 'text', text: 'nope' }] };
    expect(capToolResultData(failed)).toEqual({ ok: true, result: failed });
    expect(capToolResultData({ content: 'x' })).toEqual({
      ok: false,
      code: 'INVALID_RESULT',
      message: 'invalid tool result: content is string, not an array',
    });
  });
});
