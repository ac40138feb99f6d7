import { describe, expect, it } from 'vitest';
import { type ServerStderrLine, StderrEvents } from '../../../src/supervisor/observe/stderr-events.js';
import type { SupervisorEvent } from '../../../src/supervisor/types.js';

function told() {
  let t = 0;
  const events: Extract<SupervisorEvent, { type: 'stderr' }>[] = [];
  const warnings: string[] = [];
  const stderr = new StderrEvents(
    (e) => {
      if (e.type === 'stderr') events.push(e);
    },
    () => t,
    (m) => warnings.push(m),
  );
  return { stderr, events, warnings, tick: (ms: number) => (t += ms) };
}

describe('StderrEvents', () => {
  it('hands every line to the line listeners, and tells events at the rate with a count of those left out', () => {
    const s = told();
    const heard: ServerStderrLine[] = [];
    const leave = s.stderr.onLine((l) => heard.push(l));
    for (let i = 0; i < 250; i++) s.stderr.line('a', `line ${i}`);
    expect(heard).toHaveLength(250);
    expect(heard.at(-1)).toEqual({ server: 'a', line: 'line 249', at: 0 });
    // The burst of 200 is told; the other 50 are counted.
    expect(s.events).toHaveLength(200);
    expect(s.events.every((e) => e.dropped === 0)).toBe(true);
    s.tick(20); // one token back at 50/s
    s.stderr.line('a', 'after');
    expect(s.events.at(-1)).toEqual({ type: 'stderr', server: 'a', line: 'after', dropped: 50, at: 20 });
    leave();
    s.stderr.line('a', 'unheard');
    expect(heard).toHaveLength(251);
  });

  it('limits each server on its own', () => {
    const s = told();
    for (let i = 0; i < 300; i++) s.stderr.line('a', 'flood');
    s.stderr.line('b', 'quiet');
    expect(s.events.filter((e) => e.server === 'b')).toEqual([
      { type: 'stderr', server: 'b', line: 'quiet', dropped: 0, at: 0 },
    ]);
  });

  it('a line listener that throws is told of, and the others still hear the line', () => {
    const s = told();
    const heard: string[] = [];
    s.stderr.onLine(() => {
      throw new Error('listener bug');
    });
    s.stderr.onLine((l) => heard.push(l.line));
    s.stderr.line('a', 'one');
    expect(heard).toEqual(['one']);
    expect(s.warnings).toEqual(['stderr listener threw: Error: listener bug']);
    expect(s.events).toHaveLength(1);
  });
});
