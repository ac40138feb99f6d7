import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isSecretName, looksSecretValue, MASK, maskArgs, maskEnv, maskValue } from '../../src/trust/mask.js';

describe('isSecretName', () => {
  it('flags secret-looking names in any case', () => {
    for (const name of [
      'GITHUB_TOKEN',
      'api_key',
      'OPENAI_API_KEY',
      'CLIENT_SECRET',
      'DB_PASSWORD',
      'PGPASS',
      'BASIC_AUTH',
      'AWS_CREDENTIALS',
      'COOKIE',
      'SESSION_ID',
      'PRIVATE_PEM',
    ]) {
      expect(isSecretName(name), name).toBe(true);
    }
    for (const name of ['MODE', 'LOG_LEVEL', 'PORT', 'LANG', 'ROOT_DIR'])
      expect(isSecretName(name), name).toBe(false);
  });
});

describe('looksSecretValue', () => {
  it('shows plain settings', () => {
    for (const v of [
      'dev',
      'production',
      'info',
      '3000',
      'en_US.UTF-8',
      'http://localhost:8080',
      '/usr/local/bin',
    ]) {
      expect(looksSecretValue(v), v).toBe(false);
    }
    for (const v of ['us-east-1', 'gpt-4o-mini', 'HelloWorldApp', 'x86_64-linux-gnu', 'v1.2.3-beta.4']) {
      expect(looksSecretValue(v), v).toBe(false);
    }
  });

  it('hides tokens, digests, UUIDs, URLs with passwords, PEM and anything long', () => {
    for (const v of [
      'ghp_16C7e42F292c6912E7710c838347Ae178B4a',
      'aZ3kP9qL2mX7vB1nC4wE',
      '9f86d081884c7d659a2feaa0c55ad015',
      '550e8400-e29b-41d4-a716-446655440000',
      'postgres://user:pw@db/app',
      '-----BEGIN PRIVATE KEY-----',
      'a'.repeat(41),
    ]) {
      expect(looksSecretValue(v), v).toBe(true);
    }
  });

  it('hides random base62 tokens of 20 characters or more (nearly always)', () => {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
    const token = fc
      .array(fc.integer({ min: 0, max: 61 }), { minLength: 20, maxLength: 40 })
      .map((xs) => xs.map((i) => alphabet[i]).join(''));
    const samples = fc.sample(token, { numRuns: 2000, seed: 42 });
    const shown = samples.filter((t) => !looksSecretValue(t));
    expect(shown.length / samples.length).toBeLessThan(0.02);
  });
});

describe('maskValue / maskEnv', () => {
  it('masks by name or by value, shows MODE=dev', () => {
    expect(maskValue('MODE', 'dev')).toBe('dev');
    expect(maskValue('TOKEN', 'dev')).toBe(MASK);
    expect(maskValue('UPSTREAM', 'aZ3kP9qL2mX7vB1nC4wE')).toBe(MASK);
    expect(maskEnv({ TOKEN: 'abc', MODE: 'dev', BIG: 'x'.repeat(100) })).toEqual({
      BIG: MASK,
      MODE: 'dev',
      TOKEN: MASK,
    });
  });
});

describe('maskArgs', () => {
  it('masks values of secret flags, secret headers and tokens, keeps the rest', () => {
    expect(
      maskArgs([
        'server.js',
        '--token',
        'abc',
        '--api-key=xyz',
        '--root',
        '/a/very/long/path/that/is/not/a/secret/at/all/really',
        '-H',
        'Authorization: Bearer abc',
        '--upstream=aZ3kP9qL2mX7vB1nC4wE',
        'aZ3kP9qL2mX7vB1nC4wE',
        '--verbose',
      ]),
    ).toEqual([
      'server.js',
      '--token',
      MASK,
      `--api-key=${MASK}`,
      '--root',
      '/a/very/long/path/that/is/not/a/secret/at/all/really',
      '-H',
      `Authorization: ${MASK}`,
      `--upstream=${MASK}`,
      MASK,
      '--verbose',
    ]);
  });

  it('does not swallow the next flag after a secret flag used as a switch', () => {
    expect(maskArgs(['--no-auth', '--port', '3000'])).toEqual(['--no-auth', '--port', '3000']);
  });
});
