import { describe, expect, it } from 'vitest';
import { identityText } from '../../../src/inspector/browser/format.js';

describe('identityText (the browser module, run in Node)', () => {
  it('names the server, its protocol and what it offers, sorted', () => {
    expect(
      identityText({
        protocolVersion: '2025-11-25',
        info: { name: 'mcp-servers/everything', version: '2.0.0' },
        capabilities: { tools: {}, logging: {}, prompts: {} },
      }),
    ).toBe('mcp-servers/everything 2.0.0 \u00b7 MCP 2025-11-25 \u00b7 logging, prompts, tools');
  });

  it('prefers the title, and says so when a server names nothing and offers nothing', () => {
    expect(identityText({ protocolVersion: 'p', info: { name: 'n', title: 'Nice' }, capabilities: {} })).toBe(
      'Nice \u00b7 MCP p \u00b7 no capabilities',
    );
    expect(identityText({ protocolVersion: 'p', info: {}, capabilities: {} })).toBe(
      '(unnamed) \u00b7 MCP p \u00b7 no capabilities',
    );
  });

  it('is empty before the handshake', () => {
    expect(identityText(undefined)).toBe('');
  });
});
