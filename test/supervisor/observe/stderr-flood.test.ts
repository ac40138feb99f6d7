import { afterEach, describe, expect, it } from 'vitest';
import { request } from '../../../src/control/client.js';
import { type Control, openControl } from '../../../src/control/open-control.js';
import type { LogEntry } from '../../../src/supervisor/observe/server-logs.js';
import type { SupervisorEvent } from '../../../src/supervisor/types.js';
import { eventually, fixtureServer, fleetConfig, fleets } from '../fleet.js';
import { tempDir } from '../helpers.js';

const f = fleets();
const controls: Control[] = [];
const dirs: Array<{ cleanup(): void }> = [];
afterEach(async () => {
  await f.reap();
  for (const c of controls.splice(0)) await c.close();
  for (const d of dirs.splice(0)) d.cleanup();
});

const RING = 256 * 1024;
const FLOOD = 3 * 1024 * 1024;
const DONE = /^fixture\[\d+\]: stderr flood done: \d+ lines$/;

const stderrLines = (entries: LogEntry[]) => entries.flatMap((e) => (e.source === 'stderr' ? [e.line] : []));

describe('a stderr flood', () => {
  it('leaves the newest lines in the ring, within its bytes, while only the stderr events are rate-limited', async () => {
    const began = Date.now();
    const dir = tempDir();
    dirs.push(dir);
    const { sup, events } = f.create(
      fleetConfig([fixtureServer('fx', ['--stderr-flood', String(FLOOD)])], { logs: { ring: RING } }),
    );
    const control = await openControl(sup, { dir: dir.dir, config: '<test>', command: 'run' });
    controls.push(control);
    await sup.start();

    // The flood's closing line is the last the fixture writes: once it is kept, everything before it was read.
    await eventually(
      () => stderrLines(control.logs.entries('fx')).some((l) => DONE.test(l)),
      20_000,
      'the line after the flood in the ring',
    );
    const kept = control.logs.entries('fx');
    const lines = stderrLines(kept);
    expect(lines.at(-1)).toMatch(DONE);
    // The newest lines, none skipped: the flood's line numbers run without a gap up to the closing line.
    const numbers = lines.flatMap((l) => /: flood line (\d+) /.exec(l)?.[1] ?? []).map(Number);
    expect(numbers.length).toBeGreaterThan(1000);
    expect(numbers.every((n, i) => i === 0 || n === numbers[i - 1]! + 1)).toBe(true);
    expect(numbers.at(-1)).toBe(Number(/(\d+) lines$/.exec(lines.at(-1)!)![1]) - 1);
    // Within the ring's bytes (which also counts each entry's bookkeeping), and full: the flood filled it.
    const bytes = kept.reduce(
      (sum, e) => sum + Buffer.byteLength(e.source === 'stderr' ? e.line : JSON.stringify(e)),
      0,
    );
    expect(bytes).toBeLessThanOrEqual(RING);
    expect(bytes).toBeGreaterThan(RING / 2);

    // The same through the control socket, as `mcp-supervisor logs fx` reads it.
    const r = await request(control.path, { cmd: 'logs', server: 'fx' });
    if (!r.ok || !r.answer.ok) throw new Error(`logs failed: ${JSON.stringify(r)}`);
    const answered = (r.answer.data as { entries: LogEntry[] }).entries;
    expect(stderrLines(answered).at(-1)).toMatch(DONE);

    // The events stayed within the rate (a burst of 200, then 50/s), and say how many lines they left out.
    const told = events.filter((e) => e.type === 'stderr') as Extract<SupervisorEvent, { type: 'stderr' }>[];
    const seconds = (Date.now() - began) / 1000;
    expect(told.length).toBeLessThanOrEqual(200 + Math.ceil(50 * seconds) + 1);
    expect(told.some((e) => e.dropped > 0)).toBe(true);
  }, 30_000);
});
