import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { replicaTaskIds } from '../../../src/supervisor/tasks/replica-ids.js';

const key = randomBytes(32);

describe('replica task ids', () => {
  it("tell a sibling's id (same key, another process) from this one's own and from made-up ones", () => {
    const [mine, sibling, stranger] = [
      replicaTaskIds(key),
      replicaTaskIds(key),
      replicaTaskIds(randomBytes(32)),
    ];
    const id = `srv.${sibling.mint()}`;
    expect(id).toMatch(/^srv\.[A-Za-z0-9_-]{16}-[0-9a-f-]{36}$/);
    expect(mine.fromSibling(id)).toBe(true);
    // Its own ids are not a sibling's (unknown to it, they are simply unknown), nor are another key's.
    expect(sibling.fromSibling(id)).toBe(false);
    expect(mine.fromSibling(`srv.${stranger.mint()}`)).toBe(false);
    // A made-up instance, or a MAC altered by one character, reads as no one's.
    const flip = (s: string, at: number) => s.slice(0, at) + (s[at] === 'A' ? 'B' : 'A') + s.slice(at + 1);
    expect(mine.fromSibling(flip(id, 4))).toBe(false);
    expect(mine.fromSibling(flip(id, 15))).toBe(false);
    expect(mine.fromSibling('srv.f47ac10b-58cc-4372-a567-0e02b2c3d479')).toBe(false);
  });

  it('mints unguessable ids: a fresh UUID each time', () => {
    const ids = replicaTaskIds(key);
    const [a, b] = [ids.mint(), ids.mint()];
    expect(a.slice(0, 16)).toBe(b.slice(0, 16));
    expect(a).not.toBe(b);
  });
});
