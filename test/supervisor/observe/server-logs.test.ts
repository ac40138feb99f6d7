import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  LOG_ENTRY_OVERHEAD_BYTES,
  type LogEntry,
  type LogSource,
  logEntryBytes,
  ServerLogs,
} from '../../../src/supervisor/observe/server-logs.js';
import type { ServerStderrLine } from '../../../src/supervisor/observe/stderr-events.js';
import { eventually } from '../fleet.js';
import { logSource as source } from './log-source.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('ServerLogs', () => {
  it("keeps each server's newest lines within its byte budget, and MCP log messages as data", () => {
    const s = source();
    const logs = new ServerLogs(s.src, { ring: 1024 });
    for (let i = 0; i < 100; i++) s.line('a', `line ${String(i).padStart(3, '0')} ${'x'.repeat(90)}`);
    s.line('b', 'only b');
    s.emit({ type: 'log', server: 'b', level: 'warning', logger: 'db', data: { n: 1 }, at: 2 });
    const a = logs.entries('a') as Extract<LogEntry, { source: 'stderr' }>[];
    // 99 bytes a line and 64 for the entry: six fit in 1 KiB, and they are the last six.
    expect(a.map((e) => e.line.slice(0, 8))).toEqual(
      Array.from({ length: 6 }, (_, i) => `line ${String(94 + i).padStart(3, '0')}`),
    );
    expect(logs.entries('b')).toEqual([
      { at: 1, source: 'stderr', line: 'only b' },
      { at: 2, source: 'log', level: 'warning', logger: 'db', data: { n: 1 } },
    ]);
    expect(logs.entries('none')).toEqual([]);
    logs.close();
    expect(s.listeners.size).toBe(0);
  });

  it('a flood of empty lines is bounded by the entry overhead, not kept by the million', () => {
    const s = source();
    const logs = new ServerLogs(s.src, { ring: 64 * 1024 });
    for (let i = 0; i < 100_000; i++) s.line('a', '');
    const kept = logs.entries('a');
    expect(kept).toHaveLength((64 * 1024) / LOG_ENTRY_OVERHEAD_BYTES);
    expect(kept.reduce((n, e) => n + logEntryBytes(e), 0)).toBe(64 * 1024);
    logs.close();
  });

  it("takes every stderr line from the source's onStderr, not from its rate-limited events", () => {
    const s = source();
    const lineListeners = new Set<(l: ServerStderrLine) => void>();
    const src: LogSource = {
      ...s.src,
      onStderr: (l) => {
        lineListeners.add(l);
        return () => lineListeners.delete(l);
      },
    };
    const logs = new ServerLogs(src);
    for (const l of lineListeners) l({ server: 'a', line: 'heard', at: 1 });
    // The same line told again as an event (as the supervisor does, when the rate lets it) is not kept twice.
    s.line('a', 'heard');
    s.emit({ type: 'log', server: 'a', level: 'info', data: 'still kept', at: 2 });
    expect(logs.entries('a')).toEqual([
      { at: 1, source: 'stderr', line: 'heard' },
      { at: 2, source: 'log', level: 'info', data: 'still kept' },
    ]);
    logs.close();
    expect(lineListeners.size).toBe(0);
    expect(s.listeners.size).toBe(0);
  });

  it('passes each new entry to followers of that server until they leave', () => {
    const s = source();
    const logs = new ServerLogs(s.src);
    const heard: string[] = [];
    const leave = logs.follow('a', (e) => heard.push(e.source === 'stderr' ? e.line : ''));
    s.line('a', 'one');
    s.line('b', 'not a');
    leave();
    s.line('a', 'two');
    expect(heard).toEqual(['one']);
    logs.close();
  });

  it('writes size-rotated files in the state directory, keeping `keep` of them', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-sup-logs-'));
    dirs.push(dir);
    const s = source();
    const logs = new ServerLogs(s.src, { ring: 4096, files: { keep: 3, size: 1024 } }, dir);
    for (let i = 0; i < 60; i++) s.line('a', `${i} ${'y'.repeat(60)}`);
    logs.close();
    const files = readdirSync(join(dir, 'logs')).sort();
    expect(files).toEqual(['a.log', 'a.log.1', 'a.log.2']);
    const sizes = files.map((f) => readFileSync(join(dir, 'logs', f)).length);
    for (const n of sizes) expect(n).toBeLessThanOrEqual(1024);
    // The newest line is last in a.log, and each file holds whole JSON lines.
    const newest = readFileSync(join(dir, 'logs', 'a.log'), 'utf8')
      .trimEnd()
      .split('\n');
    expect(JSON.parse(newest.at(-1)!)).toMatchObject({ source: 'stderr', line: `59 ${'y'.repeat(60)}` });
    const older = readFileSync(join(dir, 'logs', 'a.log.2'), 'utf8')
      .trimEnd()
      .split('\n');
    expect(Number((JSON.parse(older[0]!) as { line: string }).line.split(' ')[0])).toBeGreaterThan(0);
  });

  it('writes a flood of lines to its file, every one in order, without waiting for close', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-sup-logs-'));
    dirs.push(dir);
    const s = source();
    const logs = new ServerLogs(s.src, { ring: 4096, files: { keep: 2, size: 4 * 1024 * 1024 } }, dir);
    // Past the batch size, so some of it is written at once and the rest on the next turn of the event loop.
    for (let i = 0; i < 2000; i++) s.line('a', `${i} ${'z'.repeat(80)}`);
    const file = join(dir, 'logs', 'a.log');
    const read = () => {
      try {
        return readFileSync(file, 'utf8').trimEnd().split('\n');
      } catch {
        return [];
      }
    };
    await eventually(() => read().length === 2000, 5000, 'the whole flood in the file');
    const numbers = read().map((l) => Number((JSON.parse(l) as { line: string }).line.split(' ')[0]));
    expect(numbers).toEqual(Array.from({ length: 2000 }, (_, i) => i));
    logs.close();
  });
});
