import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LiveTable } from '../../../src/cli/output/live-table.js';
import type { ServerStatus } from '../../../src/supervisor/types.js';

/** A terminal stand-in: records every write. */
function fakeTerminal(columns = 80) {
  const writes: string[] = [];
  const stream = { columns, write: (s: string) => writes.push(s) > 0 } as unknown as NodeJS.WriteStream;
  return { stream, writes };
}

const row = (state: ServerStatus['state']): ServerStatus => ({
  id: 'fx',
  state,
  restarts: 0,
  since: 0,
  tools: 1,
});
const tables: LiveTable[] = [];
// Redraws are throttled in time, so time is the subject: it runs on fake timers (and a fake Date.now), advanced
// exactly, and "no redraw yet" is a fact about the clock, not a guess about a loaded machine.
beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  for (const t of tables.splice(0)) t.stop();
  vi.useRealTimers();
});
const wait = async (ms: number) => {
  vi.advanceTimersByTime(ms);
};

describe('LiveTable', () => {
  it('draws below, then redraws in place by moving the cursor up over what it drew', async () => {
    const { stream, writes } = fakeTerminal();
    let state: ServerStatus['state'] = 'spawning';
    const table = new LiveTable(stream, () => [row(state)], { throttleMs: 10, now: () => 0, colour: false });
    tables.push(table);
    table.setHeader(['title']);
    await wait(30);
    const first = writes.filter((w) => w.includes('STATE'));
    expect(first).toHaveLength(1);
    expect(first[0]).not.toMatch(/\x1b\[\d+F/);
    state = 'ready';
    table.invalidate();
    await wait(30);
    const frames = writes.filter((w) => w.includes('STATE'));
    expect(frames).toHaveLength(2);
    // Three lines drawn before (title, header, fx): three lines up, each line cleared, the rest of the screen cleared.
    expect(frames[1]!.startsWith('\x1b[3F\x1b[2Ktitle\n')).toBe(true);
    expect(frames[1]).toMatch(/\x1b\[2Kfx +ready/);
    expect(frames[1]!.endsWith('\x1b[J')).toBe(true);
  });

  it('prints a line wider than the terminal whole above the table, and never moves the cursor back over it', async () => {
    const { stream, writes } = fakeTerminal(40);
    const table = new LiveTable(stream, () => [row('ready')], {
      throttleMs: 10,
      now: () => 0,
      colour: false,
    });
    tables.push(table);
    table.setHeader(['title']);
    await wait(30);
    const url = `http://127.0.0.1:4321/?token=${'t'.repeat(64)}`;
    table.print(`inspector UI at ${url}`);
    // The drawn title and table (3 lines) are taken back first, then the line goes where they were, uncut.
    expect(writes.at(-1)).toBe(`\x1b[3F\x1b[Jinspector UI at ${url}\n`);
    await wait(30);
    const frame = writes.at(-1)!;
    // Drawn afresh under it: no cursor-up in this frame, and the next redraw goes up over the 3 table lines only.
    expect(frame).toMatch(/^\x1b\[2Ktitle\n/);
    table.invalidate();
    await wait(30);
    expect(writes.at(-1)!.startsWith('\x1b[3F')).toBe(true);
  });

  it('coalesces a burst of changes into one redraw per throttle interval', async () => {
    const { stream, writes } = fakeTerminal();
    const table = new LiveTable(stream, () => [row('ready')], { throttleMs: 100, tickMs: 10_000 });
    tables.push(table);
    const frames = () => writes.filter((w) => w.includes('STATE')).length;
    // nothing drawn yet: the first burst is drawn once, at once
    for (let i = 0; i < 50; i++) table.invalidate();
    await wait(0);
    expect(frames()).toBe(1);
    // the next burst, right after that draw, waits out the throttle interval and is drawn once at its end
    for (let i = 0; i < 50; i++) table.invalidate();
    await wait(99);
    expect(frames()).toBe(1);
    await wait(1);
    expect(frames()).toBe(2);
    await wait(150);
    expect(frames()).toBe(2);
  });

  it('stays silent while suspended for a prompt and draws afresh (no cursor-up) after', async () => {
    const { stream, writes } = fakeTerminal();
    const table = new LiveTable(stream, () => [row('ready')], { throttleMs: 10, tickMs: 10_000 });
    tables.push(table);
    table.invalidate();
    await wait(30);
    table.suspend();
    const before = writes.filter((w) => w.includes('STATE')).length;
    table.invalidate();
    await wait(30);
    expect(writes.filter((w) => w.includes('STATE')).length).toBe(before);
    table.resume();
    await wait(30);
    const frames = writes.filter((w) => w.includes('STATE'));
    expect(frames.length).toBe(before + 1);
    expect(frames.at(-1)).not.toMatch(/\x1b\[\d+F/);
  });

  it('shows the cursor again when stopped', () => {
    const { stream, writes } = fakeTerminal();
    const table = new LiveTable(stream, () => [], { tickMs: 10_000 });
    expect(writes[0]).toBe('\x1b[?25l');
    table.stop();
    expect(writes.at(-1)).toBe('\x1b[?25h');
  });
});
