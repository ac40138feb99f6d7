import { afterEach, describe, expect, it } from 'vitest';
import { eventRecord, lastLines } from '../../../src/cli/output/event-log.js';
import { fixtureConnections } from '../../supervisor/helpers.js';

const fx = fixtureConnections();
afterEach(fx.reap);

describe('the stderr of an exit in a log line', () => {
  it('keeps the cause a server printed first, before its long stack, and its last line', async () => {
    const exit = await fx.open(['--throw-at-start', '400']).exited;
    const { level, fields } = eventRecord({
      type: 'exit',
      server: 'fx',
      code: exit.code,
      signal: exit.signal,
      reason: exit.reason,
      stderrTail: exit.stderrTail,
      at: Date.now(),
    });
    expect(level).toBe('warn');
    expect(fields.stderr).toContain("Error: Cannot find module 'fixture-missing-dependency'");
    expect(fields.stderr).toMatch(/Node\.js v\d+\S*$/);
    expect(String(fields.stderr).length).toBeLessThanOrEqual(410);
  });

  it('folds a short tail whole', () => {
    expect(lastLines('one\ntwo\n')).toBe('one | two');
  });
});

describe('a coded notice in a log line', () => {
  it('carries its code as a field of its own, for tools that filter logs', () => {
    const { level, fields } = eventRecord({
      type: 'notice',
      server: 'fx',
      code: 'QUEUE_FULL',
      message: 'stopped reading its input',
      at: 0,
    });
    expect(level).toBe('warn');
    expect(fields).toMatchObject({ event: 'notice', server: 'fx', code: 'QUEUE_FULL' });
  });
});

describe("a server's log message in a log line", () => {
  it('maps MCP levels onto the three of the log and keeps the server, logger and data', () => {
    const at = 0;
    const warn = eventRecord({ type: 'log', server: 'ev', level: 'warning', logger: 'db', data: 'slow', at });
    expect(warn).toEqual({
      level: 'warn',
      fields: { event: 'server_log', server: 'ev', logger: 'db', msg: 'slow' },
    });
    const critical = eventRecord({ type: 'log', server: 'ev', level: 'critical', data: { n: 1 }, at });
    expect(critical.level).toBe('error');
    expect(critical.fields.msg).toBe('{"n":1}');
    expect(eventRecord({ type: 'log', server: 'ev', level: 'notice', data: 'x', at }).level).toBe('info');
  });
});
