import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { flattenToolResult } from '../../src/framing/flatten.js';
import { isWellFormed, truncationMarker, utf8Length } from '../../src/framing/utf8-cap.js';

// test/framing/flatten.test.ts checks that anything at all never throws, and the cap on text-only results.
// These check the cap and the ERROR: prefix on arbitrary content arrays: every block type, missing and
// mistyped fields, strings of hundreds of KiB (multi-byte, lone surrogates), and non-objects in the array.

/** Strings from empty to ~300 KiB, built by repetition so generation stays cheap. */
const huge = fc
  .tuple(fc.constantFrom('x', 'é', '€', '😀', '\ud800', 'a\n'), fc.integer({ min: 0, max: 150_000 }))
  .map(([c, n]) => c.repeat(n));
const str = fc.oneof(
  { arbitrary: fc.string({ unit: 'binary', maxLength: 60 }), weight: 4 },
  { arbitrary: huge, weight: 1 },
);
const maybe = <T>(a: fc.Arbitrary<T>) => fc.oneof(a, fc.anything());
const base64 = fc.uint8Array({ minLength: 48, maxLength: 600 }).map((b) => Buffer.from(b).toString('base64'));

const block = fc.oneof(
  fc.record({ type: fc.constant('text'), text: maybe(str) }, { requiredKeys: ['type'] }),
  fc.record(
    { type: fc.constantFrom('image', 'audio'), data: maybe(base64), mimeType: maybe(str) },
    { requiredKeys: ['type'] },
  ),
  fc.record(
    {
      type: fc.constant('resource'),
      resource: maybe(
        fc.record(
          { uri: maybe(str), text: maybe(str), blob: maybe(base64), mimeType: maybe(str) },
          { requiredKeys: [] },
        ),
      ),
    },
    { requiredKeys: ['type'] },
  ),
  fc.record(
    { type: fc.constant('resource_link'), uri: maybe(str), name: maybe(str) },
    { requiredKeys: ['type'] },
  ),
  fc.record({ type: maybe(fc.string()), text: maybe(str) }, { requiredKeys: [] }),
  fc.oneof(fc.string(), fc.integer(), fc.constant(null), fc.array(fc.anything(), { maxLength: 2 })),
);
const result = fc.record(
  {
    content: fc.oneof(
      { arbitrary: fc.array(block, { maxLength: 8 }), weight: 5 },
      { arbitrary: fc.anything(), weight: 1 },
    ),
    isError: fc.oneof(fc.boolean(), fc.anything()),
    structuredContent: fc.oneof(fc.dictionary(fc.string(), fc.anything()), fc.anything()),
    toolResult: fc.anything(),
  },
  { requiredKeys: [] },
);

// Room for `ERROR: ` and the longest truncation marker: below it, the cap wins and the prefix is lost.
const FLOOR = utf8Length('ERROR: ') + utf8Length(truncationMarker(Number.MAX_SAFE_INTEGER));
const maxBytes = fc.oneof(
  fc.integer({ min: FLOOR, max: 512 }),
  fc.integer({ min: FLOOR, max: 1 << 20 }),
  fc.constant(undefined),
);

describe('flattenToolResult under random content', () => {
  it('never throws; always a well-formed string within maxBytes; ERROR: whenever isError is true', () => {
    let errors = 0;
    let capped = 0;
    fc.assert(
      fc.property(
        fc.oneof({ arbitrary: result, weight: 6 }, { arbitrary: fc.anything(), weight: 1 }),
        maxBytes,
        (r, max) => {
          const out = flattenToolResult(r, { maxBytes: max });
          expect(typeof out).toBe('string');
          expect(isWellFormed(out)).toBe(true);
          expect(utf8Length(out)).toBeLessThanOrEqual(max ?? 64 * 1024);
          const isObject = typeof r === 'object' && r !== null && !Array.isArray(r);
          if (!isObject) {
            // the whole `invalid tool result` line fits only under a roomier cap; `ERROR: ` fits under any
            expect(out.startsWith('ERROR: ')).toBe(true);
            if ((max ?? 64 * 1024) >= 128) expect(out.startsWith('ERROR: invalid tool result: ')).toBe(true);
          }
          if (isObject && (r as { isError?: unknown }).isError === true) {
            expect(out.startsWith('ERROR: ')).toBe(true);
            errors++;
          }
          if (/… \[truncated \d+ bytes\]$/.test(out)) capped++;
        },
      ),
      { numRuns: 400 },
    );
    // the generators must reach both the isError path and the cap, or the property says little
    expect(errors).toBeGreaterThan(20);
    expect(capped).toBeGreaterThan(20);
  });

  it('never lets base64 data through, whatever surrounds it', () => {
    let rendered = 0;
    fc.assert(
      fc.property(
        fc.array(block, { maxLength: 5 }),
        base64,
        fc.constantFrom('image', 'audio'),
        fc.nat(5),
        (blocks, data, type, at) => {
          const content = [...blocks];
          content.splice(at, 0, { type, data, mimeType: 'application/x-test' });
          const out = flattenToolResult({ content }, { maxBytes: 1 << 20 });
          expect(out.includes(data.slice(0, 48))).toBe(false);
          if (!out.startsWith('ERROR: invalid tool result')) {
            rendered++;
            expect(out).toContain(`[${type}: application/x-test, `);
          }
        },
      ),
      { numRuns: 300 },
    );
    expect(rendered).toBeGreaterThan(30);
  });
});
