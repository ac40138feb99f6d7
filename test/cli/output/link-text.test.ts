import { describe, expect, it } from 'vitest';
import { describeExit } from '../../../src/cli/control/status-table.js';
import { eventRecord } from '../../../src/cli/output/event-log.js';
import { describeEvent } from '../../../src/cli/output/reporter.js';

const linkError = {
  url: 'https://u:pw@mcp.example.com/mcp',
  status: 401,
  detail: 'HTTP 401 Unauthorized to POST',
};
const exit = { code: null, signal: null, reason: 'connect_failed', stderrTail: '', at: 0, linkError };

describe("a url server's failed connection, for people", () => {
  it('names the URL (its password masked), the status and the reason in the table, the events and the log', () => {
    const row = { id: 'web', state: 'backoff' as const, restarts: 1, since: 0, tools: 0, lastExit: exit };
    expect(describeExit(row, 2000)).toBe(
      'could not connect to https://u:***@mcp.example.com/mcp: HTTP 401 Unauthorized to POST, 2s ago',
    );
    expect(describeEvent({ type: 'exit', server: 'web', ...exit })).toBe(
      'web could not connect to https://u:***@mcp.example.com/mcp: HTTP 401 Unauthorized to POST',
    );
    expect(eventRecord({ type: 'exit', server: 'web', ...exit })?.fields).toMatchObject({
      error: 'HTTP_401',
      reason: 'connect_failed',
    });
  });
});
