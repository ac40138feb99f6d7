import { describe, expect, it } from 'vitest';
import {
  isQualified,
  parseQualifiedUri,
  qualifyTemplate,
  qualifyUri,
} from '../../src/registry/resource-uri.js';

describe('the fleet scheme for resource URIs', () => {
  it('names the server and the original URI, and decodes back to exactly them', () => {
    const uris = [
      'file:///tmp/a b/c.txt',
      'demo://resource/static/document/architecture.md',
      'x:?q=1&r=%2F#frag',
      'mcp-supervisor://other/inner%2Furi',
      'täst://ü/%',
    ];
    for (const uri of uris) {
      const q = qualifyUri('srv-1', uri);
      expect(q.startsWith('mcp-supervisor://srv-1/')).toBe(true);
      expect(isQualified(q)).toBe(true);
      expect(parseQualifiedUri(q)).toEqual({ server: 'srv-1', uri });
    }
  });

  it('refuses what it did not make: other schemes, no server, no URI, bad escapes', () => {
    for (const uri of [
      'file:///x',
      'mcp-supervisor://',
      'mcp-supervisor://srv',
      'mcp-supervisor:///file',
      'mcp-supervisor://srv/',
      'mcp-supervisor://srv/%E0%A4%A',
    ]) {
      expect(parseQualifiedUri(uri)).toBeUndefined();
    }
  });

  it('keeps the expressions of a template, so its expansion decodes to the server URI', () => {
    const t = qualifyTemplate('b', 'fixture://item/{id}?v={v}');
    expect(t).toBe('mcp-supervisor://b/fixture%3A%2F%2Fitem%2F{id}%3Fv%3D{v}');
    const expanded = t.replace('{id}', '42').replace('{v}', 'x');
    expect(parseQualifiedUri(expanded)).toEqual({ server: 'b', uri: 'fixture://item/42?v=x' });
  });
});
