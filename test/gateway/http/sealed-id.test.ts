import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseSessionKey } from '../../../src/config/session-key.js';
import { openSession, type SealedSession, sealSession } from '../../../src/gateway/http/sealed-id.js';

const key = randomBytes(32);
const session: SealedSession = {
  v: '2025-11-25',
  caps: { elicitation: {} },
  info: { name: 'client', version: '1' },
  caller: 'serve.auth.tokens[0]',
  exp: 10_000,
};

describe('sealed session ids', () => {
  it('open under the same key until they expire; each seal differs (a fresh IV)', () => {
    const id = sealSession(key, session);
    expect(id).toMatch(/^s1\.[A-Za-z0-9_-]+$/);
    expect(sealSession(key, session)).not.toBe(id);
    expect(openSession(key, id, 9_999)).toEqual(session);
    expect(openSession(key, id, 10_000)).toBeUndefined();
  });

  it('another key, an altered byte, a made-up or unsealed id open to nothing', () => {
    const id = sealSession(key, session);
    expect(openSession(randomBytes(32), id, 0)).toBeUndefined();
    expect(openSession(key, 'f47ac10b-58cc-4372-a567-0e02b2c3d479', 0)).toBeUndefined();
    expect(openSession(key, 's1.', 0)).toBeUndefined();
    // The last character carries unused bits: every other spelling of it is refused too.
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    for (const c of alphabet) {
      const other = id.slice(0, -1) + c;
      if (other !== id) expect(openSession(key, other, 0)).toBeUndefined();
    }
    fc.assert(
      fc.property(fc.integer({ min: 3, max: id.length - 1 }), fc.integer({ min: 0, max: 63 }), (at, to) => {
        const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
        const altered = id.slice(0, at) + alphabet[to] + id.slice(at + 1);
        return altered === id || openSession(key, altered, 0) === undefined;
      }),
    );
  });

  it('reads a key as 64 hex digits or base64 of 32 bytes, and refuses anything else', () => {
    const raw = randomBytes(32);
    expect(parseSessionKey(raw.toString('hex'))).toEqual({ ok: true, key: raw });
    expect(parseSessionKey(raw.toString('base64'))).toEqual({ ok: true, key: raw });
    expect(parseSessionKey(raw.toString('base64url'))).toEqual({ ok: true, key: raw });
    expect(parseSessionKey('abc')).toMatchObject({ ok: false });
    expect(parseSessionKey(randomBytes(16).toString('hex'))).toMatchObject({ ok: false });
  });
});
