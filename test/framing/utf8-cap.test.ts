import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  base64DecodedBytes,
  capUtf8,
  formatBytes,
  isWellFormed,
  truncationMarker,
  utf8Length,
  wellFormed,
} from '../../src/framing/utf8-cap.js';

// code units of every kind, lone surrogates included
const unit = fc.oneof(
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
  fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)),
);
const anyText = fc.string({ unit, maxLength: 300 });

describe('capUtf8', () => {
  it('always returns well-formed text within maxBytes, ending with an exact marker when it cuts', () => {
    fc.assert(
      fc.property(anyText, fc.integer({ min: 40, max: 600 }), (text, max) => {
        const out = capUtf8(text, max);
        expect(isWellFormed(out)).toBe(true);
        expect(utf8Length(out)).toBeLessThanOrEqual(max);
        const whole = wellFormed(text);
        if (utf8Length(whole) <= max) {
          expect(out).toBe(whole);
          return;
        }
        const m = /… \[truncated (\d+) bytes\]$/.exec(out);
        expect(m).not.toBeNull();
        const kept = out.slice(0, m!.index);
        expect(whole.startsWith(kept)).toBe(true);
        expect(utf8Length(kept) + Number(m![1])).toBe(utf8Length(whole));
      }),
      { numRuns: 500 },
    );
  });

  it('cuts before a multi-byte character that does not fit', () => {
    const text = `${'a'.repeat(10)}€${'b'.repeat(100)}`;
    // room for 12 bytes of text: the 10 'a's fit, the 3-byte '€' after them does not
    const max = 12 + utf8Length(truncationMarker(utf8Length(text)));
    const out = capUtf8(text, max);
    expect(out.startsWith(`${'a'.repeat(10)}…`)).toBe(true);
    expect(out).toBe(`${'a'.repeat(10)}${truncationMarker(utf8Length(text) - 10)}`);
  });

  it('returns only the marker when the cap cannot hold it', () => {
    expect(capUtf8('x'.repeat(100), 5)).toBe(truncationMarker(100));
  });
});

describe('formatBytes and base64DecodedBytes', () => {
  it('formats sizes for people', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(30003)).toBe('29.3 KiB');
    expect(formatBytes(1024 * 1024 - 1)).toBe('1.0 MiB');
    expect(formatBytes(3 * 1024 ** 3)).toBe('3.0 GiB');
  });

  it('computes decoded sizes of base64 without decoding', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 100 }), (bytes) => {
        const b64 = Buffer.from(bytes).toString('base64');
        expect(base64DecodedBytes(b64)).toBe(bytes.length);
        expect(base64DecodedBytes(b64.replace(/=+$/, ''))).toBe(bytes.length);
      }),
    );
  });
});
