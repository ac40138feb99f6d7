import { describe, expect, it } from 'vitest';
import { checkScopes, scopeGrants } from '../../src/registry/scopes.js';

const tool = (...scopesRequired: string[]) => ({ scopesRequired });

describe('checkScopes: plugin-wide floor ∪ tool scopes', () => {
  it('plugin-wide scopes suffice for a tool without its own', () => {
    expect(
      checkScopes({
        pluginWideScopes: ['mcp.read.documents'],
        callerScopes: ['mcp.read.documents'],
        tool: tool(),
      }),
    ).toEqual({ ok: true, required: ['mcp.read.documents'], missing: [] });
  });

  it('tool scopes extend the plugin-wide ones, never replace them', () => {
    const r = checkScopes({
      pluginWideScopes: ['mcp.read.documents'],
      callerScopes: ['mcp.read.documents', 'mcp.write.documents'],
      tool: tool('mcp.write.documents'),
    });
    expect(r).toEqual({ ok: true, required: ['mcp.read.documents', 'mcp.write.documents'], missing: [] });
  });

  it('reports the plugin-wide scope missing when the caller holds only the tool scope', () => {
    const r = checkScopes({
      pluginWideScopes: ['mcp.read.documents'],
      callerScopes: ['mcp.write.documents'],
      tool: tool('mcp.write.documents'),
    });
    expect(r).toEqual({
      ok: false,
      required: ['mcp.read.documents', 'mcp.write.documents'],
      missing: ['mcp.read.documents'],
    });
  });

  it('reports the tool scope missing when the caller holds only the plugin-wide scope', () => {
    const r = checkScopes({
      pluginWideScopes: ['mcp.read.documents'],
      callerScopes: ['mcp.read.documents'],
      tool: tool('mcp.write.documents'),
    });
    expect(r.ok).toBe(false);
    expect(r.missing).toEqual(['mcp.write.documents']);
  });

  it('deduplicates required (and missing) in first-seen order, plugin-wide first', () => {
    const r = checkScopes({
      pluginWideScopes: ['b', 'a', 'b'],
      callerScopes: [],
      tool: tool('c', 'a', 'c'),
    });
    expect(r).toEqual({ ok: false, required: ['b', 'a', 'c'], missing: ['b', 'a', 'c'] });
  });

  it('empty cases: nothing required is always ok; something required with no caller scopes is not', () => {
    expect(checkScopes({ callerScopes: [], tool: tool() })).toEqual({ ok: true, required: [], missing: [] });
    expect(checkScopes({ pluginWideScopes: [], callerScopes: ['x'], tool: tool() })).toEqual({
      ok: true,
      required: [],
      missing: [],
    });
    expect(checkScopes({ callerScopes: [], tool: tool('x') })).toEqual({
      ok: false,
      required: ['x'],
      missing: ['x'],
    });
    expect(checkScopes({ pluginWideScopes: ['p'], callerScopes: [], tool: tool() }).missing).toEqual(['p']);
  });
});

describe('wildcards: a caller scope `prefix.*`', () => {
  it('grants a concrete scope by exact match', () => {
    expect(scopeGrants('mcp.plugin.read', 'mcp.plugin.read')).toBe(true);
    expect(scopeGrants('mcp.plugin.read', 'mcp.plugin.write')).toBe(false);
  });

  it('grants every scope under the prefix, however deep', () => {
    expect(scopeGrants('mcp.plugin.*', 'mcp.plugin.x')).toBe(true);
    expect(scopeGrants('mcp.plugin.*', 'mcp.plugin.x.y')).toBe(true);
    expect(scopeGrants('mcp.*', 'mcp.plugin.x.y')).toBe(true);
    expect(scopeGrants('mcp.plugin.*', 'mcp.plugin.*')).toBe(true);
  });

  it('does not cross the prefix boundary nor grant the prefix itself', () => {
    expect(scopeGrants('mcp.plugin.*', 'mcp.pluginx')).toBe(false);
    expect(scopeGrants('mcp.plugin.*', 'mcp.pluginx.y')).toBe(false);
    expect(scopeGrants('mcp.plugin.*', 'mcp.plugin')).toBe(false);
    expect(scopeGrants('mcp.plugin.*', 'mcp.plugin.')).toBe(false);
    expect(scopeGrants('mcp.plugin.*', 'mcp.other.x')).toBe(false);
  });

  it('is only a trailing `.*`: a bare `*`, a `*` elsewhere and a required wildcard are literal', () => {
    expect(scopeGrants('*', 'mcp.plugin.x')).toBe(false);
    expect(scopeGrants('*', '*')).toBe(true);
    expect(scopeGrants('mcp.*.read', 'mcp.plugin.read')).toBe(false);
    expect(scopeGrants('mcp.plugin*', 'mcp.pluginx')).toBe(false);
    expect(scopeGrants('mcp.plugin.x', 'mcp.plugin.*')).toBe(false);
  });

  it('works inside checkScopes for both plugin-wide and tool scopes', () => {
    const r = checkScopes({
      pluginWideScopes: ['mcp.plugin.read'],
      callerScopes: ['mcp.plugin.*'],
      tool: tool('mcp.plugin.write.documents', 'mcp.pluginx', 'mcp.plugin'),
    });
    expect(r).toEqual({
      ok: false,
      required: ['mcp.plugin.read', 'mcp.plugin.write.documents', 'mcp.pluginx', 'mcp.plugin'],
      missing: ['mcp.pluginx', 'mcp.plugin'],
    });
  });
});
