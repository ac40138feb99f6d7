// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${keyring:…} references are written literally on purpose
import { describe, expect, it } from 'vitest';
import { keyringRef, parseKeyringItem } from '../../src/secrets/keyring-item.js';

describe('SERVICE/ACCOUNT', () => {
  it('splits at the first slash, so an account may hold slashes of its own', () => {
    expect(parseKeyringItem('github/me')).toEqual({ service: 'github', account: 'me' });
    expect(parseKeyringItem('git/team/bot')).toEqual({ service: 'git', account: 'team/bot' });
    expect(parseKeyringItem('api.example.com/me@example.com')).toEqual({
      service: 'api.example.com',
      account: 'me@example.com',
    });
  });

  it('has no item without a slash or with an empty part', () => {
    for (const text of ['', 'github', '/me', 'github/', '/'])
      expect(parseKeyringItem(text), text).toBeUndefined();
  });

  it('writes the reference a config uses for an item', () => {
    expect(keyringRef({ service: 'github', account: 'me' })).toBe('${keyring:github/me}');
  });
});
