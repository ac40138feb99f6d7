import { describe, expect, it } from 'vitest';
import { keepEnvValue, keepHeaderValue } from '../../../src/cli/init/secrets.js';

const ref = (name: string) => `\${${name}}`;

describe('keepEnvValue / keepHeaderValue: a secret is never copied into the new file', () => {
  it('an env value whose name or shape says secret becomes a reference to the variable of that name', () => {
    expect(keepEnvValue('API_TOKEN', 'plain')).toEqual({ value: ref('API_TOKEN'), moved: 'API_TOKEN' });
    expect(keepEnvValue('DATABASE_URL', 'postgres://app:hunter2@db/app')).toEqual({
      value: ref('DATABASE_URL'),
      moved: 'DATABASE_URL',
    });
  });

  it('a plain setting, and a value that is already a reference, are kept as they are', () => {
    expect(keepEnvValue('LOG_LEVEL', 'debug')).toEqual({ value: 'debug' });
    expect(keepEnvValue('API_TOKEN', ref('MY_TOKEN'))).toEqual({ value: ref('MY_TOKEN') });
  });

  it('a header keeps its scheme before the reference, named after the server and the header', () => {
    expect(keepHeaderValue('github', 'Authorization', 'Bearer ghp_abcdefghijklmnopqrstuvwxyz0123')).toEqual({
      value: `Bearer ${ref('GITHUB_AUTHORIZATION')}`,
      moved: 'GITHUB_AUTHORIZATION',
    });
    expect(keepHeaderValue('my-api', 'X-Api-Key', 'k')).toEqual({
      value: ref('MY_API_X_API_KEY'),
      moved: 'MY_API_X_API_KEY',
    });
    expect(keepHeaderValue('a', 'Accept', 'application/json')).toEqual({ value: 'application/json' });
  });
});
