import { describe, expect, it } from 'vitest';
import { renderToolsTable } from '../../../src/cli/output/tools-table.js';

describe('renderToolsTable', () => {
  it('aligns tools under their server, and lets the why of a server without tools run past the TOOL column', () => {
    const lines = renderToolsTable([
      {
        id: 'notes',
        state: 'ready',
        tools: [
          { name: 'notes.add_note', tool: 'add_note', scopes: ['notes.write', 'notes.read'] },
          { name: 'notes.list', tool: 'list', scopes: [] },
        ],
      },
      { id: 'quiet', state: 'ready', tools: [] },
      {
        id: 'web',
        state: 'untrusted',
        tools: [],
        reason: 'untrusted',
        message: 'not trusted: pass --trust web or --trust-all, or approve it on a terminal',
      },
    ]);
    expect(lines).toEqual([
      'SERVER  STATE      TOOL            SCOPES',
      'notes   ready      notes.add_note  notes.write,notes.read',
      'notes   ready      notes.list      -',
      'quiet   ready      (no tools)',
      'web     untrusted  not trusted: pass --trust web or --trust-all, or approve it on a terminal',
    ]);
  });
});
