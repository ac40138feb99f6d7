import { describe, expect, it } from 'vitest';
import { ServerDetails } from '../../src/inspector/server-details.js';
import type { LogEntry } from '../../src/supervisor/observe/server-logs.js';
import { FakeSource, sampleFleet } from './fake-source.js';

const tool = (name: string, server: string, description?: string) => ({
  name,
  server,
  tool: name.split('.')[1]!,
  inputSchema: {},
  scopesRequired: [],
  ...(description ? { description } : {}),
});

describe('ServerDetails', () => {
  it("keeps each server's restart timeline: exits and the way back, not startup", () => {
    const source = new FakeSource(sampleFleet());
    const d = new ServerDetails(source);
    source.transition('files', 'spawning');
    source.transition('files', 'ready');
    expect(d.detail('files').restarts).toEqual([]);
    source.exit('files', { code: 1, signal: null, reason: 'crashed', stderrTail: '' });
    source.transition('files', 'backoff');
    source.transition('files', 'spawning');
    source.transition('files', 'handshaking');
    source.transition('files', 'ready');
    source.transition('files', 'wedged');
    source.transition('files', 'ready');
    const got = d
      .detail('files')
      .restarts.map((e) => (e.type === 'state' ? e.to : e.type === 'exit' ? `exit ${e.reason}` : e.type));
    expect(got).toEqual(['exit crashed', 'backoff', 'ready']);
    // Each step reaches the page, not only the exit and the return to ready: here, being given up on.
    source.exit('files', { code: 1, signal: null, reason: 'crashed', stderrTail: '' });
    source.transition('files', 'backoff');
    d.takeChanged();
    source.transition('files', 'failed');
    expect(d.takeChanged()).toEqual(['files']);
    expect(d.detail('files').restarts.at(-1)).toMatchObject({ type: 'state', to: 'failed' });
    expect(d.detail('git').restarts).toEqual([]);
    d.close();
  });

  it('keeps the newest calls per server and says which servers changed, once', () => {
    const source = new FakeSource(sampleFleet());
    const d = new ServerDetails(source);
    expect(d.takeChanged()).toEqual([]);
    for (let i = 0; i < 25; i++)
      source.call({ server: 'git', tool: `git.t${i}`, ms: i, code: 'OK', bytes: i });
    source.call({ tool: 'nope.x', ms: 1, code: 'UNKNOWN_TOOL', bytes: 0 });
    expect(d.detail('git').calls.map((c) => c.tool)).toEqual(
      Array.from({ length: 20 }, (_, i) => `git.t${i + 5}`),
    );
    expect(d.takeChanged()).toEqual(['git']);
    expect(d.takeChanged()).toEqual([]);
    d.close();
    source.call({ server: 'git', tool: 'git.late', ms: 1, code: 'OK', bytes: 1 });
    expect(d.takeChanged()).toEqual([]);
    expect(source.listeners.size + source.callListeners.size).toBe(0);
  });

  it('shows the tail of its own small ring, long lines cut, when the host lends none', () => {
    const source = new FakeSource(sampleFleet());
    const d = new ServerDetails(source);
    for (let i = 0; i < 70; i++) source.stderr('search', `line ${i}`);
    source.stderr('search', 'y'.repeat(5000));
    source.emit({ type: 'log', server: 'search', level: 'warning', logger: 'idx', data: { n: 1 }, at: 5 });
    const logs = d.detail('search').logs;
    expect(logs).toHaveLength(60);
    expect(logs[0]).toMatchObject({ source: 'stderr', line: 'line 12' });
    const long = logs.at(-2) as Extract<LogEntry, { source: 'stderr' }>;
    expect(long.line).toHaveLength(400);
    expect(long.line.endsWith('\u2026')).toBe(true);
    expect(logs.at(-1)).toEqual({ at: 5, source: 'log', level: 'warning', logger: 'idx', data: { n: 1 } });
    expect(d.takeChanged()).toEqual(['search']);
    d.close();
  });

  it("reads the host's ring when given one, and lists only the server's own tools", () => {
    const source = Object.assign(new FakeSource(sampleFleet()), {
      logs: {
        entries: (server: string): LogEntry[] => [{ at: 1, source: 'stderr', line: `ring of ${server}` }],
      },
    });
    source.tools = [tool('git.log', 'git', 'd'.repeat(300)), tool('files.read', 'files')];
    const d = new ServerDetails(source);
    source.stderr('git', 'not kept here');
    expect(d.detail('git').logs).toEqual([{ at: 1, source: 'stderr', line: 'ring of git' }]);
    const tools = d.detail('git').tools;
    expect(tools.map((t) => t.name)).toEqual(['git.log']);
    expect(tools[0]!.description).toHaveLength(160);
    expect(source.listeners.size).toBe(1);
    d.close();
  });
});
