import { describe, expect, it } from 'vitest';
import {
  bytes,
  clock,
  describeEvent,
  duration,
  exitText,
  lastExitText,
  logLine,
  millis,
  summary,
} from '../../../src/inspector/browser/format.js';

describe("the page's words (the browser module, run in Node)", () => {
  it.each([
    [-5, '0s'],
    [999, '0s'],
    [59_999, '59s'],
    [60_000, '1m 00s'],
    [3_599_000, '59m 59s'],
    [3_600_000, '1h 00m'],
    [86_399_000, '23h 59m'],
    [86_400_000, '1d 0h'],
    [(3 * 24 + 5) * 3_600_000 + 59_000, '3d 5h'],
  ])('duration(%i) is %s', (ms, text) => {
    expect(duration(ms)).toBe(text);
  });

  it('shows a time of day to the millisecond, zero-padded, in local time', () => {
    const at = new Date(2026, 0, 2, 3, 4, 5, 6).getTime();
    expect(clock(at)).toBe('03:04:05.006');
  });

  it('reads an exit: a signal first, then a code, else just exited; a failed spawn by its why', () => {
    expect(exitText({ code: null, signal: 'SIGKILL' })).toBe('killed by SIGKILL');
    expect(exitText({ code: 0, signal: null })).toBe('exit code 0');
    expect(exitText({ code: null, signal: null })).toBe('exited');
    const x = { code: 1, signal: null, reason: 'crashed', stderrTail: '', at: 1 };
    expect(lastExitText(x)).toBe('last exit: exit code 1');
    expect(lastExitText({ ...x, code: null, why: 'command "nope" not found' })).toBe(
      'could not start: command "nope" not found',
    );
  });

  it('gives each event type its timeline text; a state change is drawn, not written', () => {
    const at = 1;
    expect(describeEvent({ type: 'state', server: 's', from: null, to: 'spawning', at })).toBeNull();
    const exit = { type: 'exit', server: 's', code: 1, signal: null, reason: 'crashed', stderrTail: '', at };
    expect(describeEvent({ ...exit, type: 'exit' })).toBe('exit code 1 — crashed');
    expect(describeEvent({ ...exit, type: 'exit', reason: '' })).toBe('exit code 1');
    expect(describeEvent({ ...exit, type: 'exit', why: 'no such cwd' })).toBe('could not start: no such cwd');
    expect(describeEvent({ type: 'refused', server: 's', method: 'roots/list', at })).toBe(
      'refused roots/list',
    );
    expect(describeEvent({ type: 'untrusted', server: 's', fingerprint: 'abcdef0123456789', at })).toBe(
      'untrusted (fingerprint abcdef012345)',
    );
    const tools = { type: 'tools' as const, server: 's', added: ['a', 'b'], removed: ['c'], at };
    expect(describeEvent({ ...tools, changed: [] })).toBe('tools +2 −1 ~0');
    expect(describeEvent({ ...tools, changed: ['x', 'y'] })).toBe('tools +2 −1 ~2 (held: x, y)');
    expect(describeEvent({ type: 'notice', server: null, message: 'queue full', at })).toBe('queue full');
    expect(describeEvent({ type: 'escalated', reason: 'too many restarts', at })).toBe(
      'escalated: too many restarts',
    );
    expect(describeEvent({ type: 'prompts', server: 's', added: ['s.a'], removed: [], at })).toBe(
      'prompts +1 −0',
    );
    expect(
      describeEvent({ type: 'log', server: 's', level: 'warning', logger: 'db', data: 'slow', at }),
    ).toBe('warning db: slow');
    expect(describeEvent({ type: 'log', server: 's', level: 'info', data: { n: 1 }, at })).toBe(
      'info: {"n":1}',
    );
  });

  it('sums the fleet up by state, in name order', () => {
    expect(summary([])).toBe('0 servers');
    expect(summary([{ state: 'ready' }])).toBe('1 server · 1 ready');
    expect(summary([{ state: 'ready' }, { state: 'backoff' }, { state: 'ready' }])).toBe(
      '3 servers · 1 backoff · 2 ready',
    );
  });
});

describe("the detail pane's words", () => {
  it('sizes in bytes, KiB and MiB, and call durations', () => {
    expect([0, 1023, 1024, 2300, 5 * 1024 * 1024].map(bytes)).toEqual([
      '0 B',
      '1023 B',
      '1.0 KiB',
      '2.2 KiB',
      '5.0 MiB',
    ]);
    expect([0.42, 9.95, 10, 1530.4].map(millis)).toEqual(['0.4', '9.9', '10', '1530']);
  });

  it('a log line: stderr as written (with what was dropped before it), a log message as level logger: data', () => {
    expect(logLine({ at: 0, source: 'stderr', line: 'boot' })).toBe('boot');
    expect(logLine({ at: 0, source: 'stderr', line: 'x', dropped: 3 })).toBe('[3 lines dropped] x');
    expect(logLine({ at: 0, source: 'log', level: 'error', logger: 'db', data: { code: 1 } })).toBe(
      'error db: {"code":1}',
    );
    expect(logLine({ at: 0, source: 'log', level: 'info', data: 'hi' })).toBe('info: hi');
  });
});
