import { describe, expect, it } from 'vitest';
import { envNameFor, isReferenceOnly, rewriteVariables } from '../../../src/cli/init/variables.js';

const ref = (name: string) => `\${${name}}`;
const ctx = {
  workspace: '/home/me/project',
  inputs: new Map([['api-key', { description: 'API key', password: true }]]),
};

describe('rewriteVariables', () => {
  it('turns an input into a reference to the variable of its name, with a note naming the prompt', () => {
    const r = rewriteVariables(`Bearer ${ref('input:api-key')}`, ctx);
    expect(r.value).toBe(`Bearer ${ref('API_KEY')}`);
    expect(r.notes).toEqual([
      `${ref('input:api-key')} became ${ref('API_KEY')}: VS Code's prompt ("API key") has no counterpart here; set API_KEY in the environment`,
    ]);
  });

  it('puts the workspace path for the workspace folder, HOME for the user home, / for the separator', () => {
    const r = rewriteVariables(`${ref('workspaceFolder')}/a${ref('pathSeparator')}b:${ref('userHome')}`, ctx);
    expect(r.value).toBe(`/home/me/project/a/b:${ref('HOME')}`);
  });

  it('keeps the references our config reads alike, and makes any other variable literal text', () => {
    const kept = `${ref('TOKEN')} ${ref('env:TOKEN')} ${ref('MODE:-dev')}`;
    expect(rewriteVariables(kept, ctx)).toEqual({ value: kept, notes: [] });
    const r = rewriteVariables(ref('config:editor.tabSize'), ctx);
    expect(r.value).toBe(`$${ref('config:editor.tabSize')}`);
    expect(r.notes[0]).toMatch(/written as literal text$/);
  });
});

describe('envNameFor and isReferenceOnly', () => {
  it('names the variable of an input id', () => {
    expect(envNameFor('github-token')).toBe('GITHUB_TOKEN');
    expect(envNameFor('1pass')).toBe('_1PASS');
  });

  it('tells a value that only names a secret from one that holds it', () => {
    expect(isReferenceOnly(`Bearer ${ref('TOKEN')}`)).toBe(true);
    expect(isReferenceOnly(`${ref('TOKEN:-abc123')}`)).toBe(false);
    expect(isReferenceOnly('Bearer abc')).toBe(false);
  });
});
