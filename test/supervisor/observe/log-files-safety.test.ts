import {
  chmodSync,
  chownSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ServerLogs } from '../../../src/supervisor/observe/server-logs.js';
import { eventually } from '../fleet.js';
import { logSource } from './log-source.js';

const dirs: string[] = [];
const opened: ServerLogs[] = [];
afterEach(() => {
  for (const l of opened.splice(0)) l.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A state directory with `logs/` made, a file outside it that a planted link points at, and logs over it. */
function planted(files = { keep: 3, size: 1024 }) {
  const state = mkdtempSync(join(tmpdir(), 'mcp-sup-logs-safety-'));
  const outside = mkdtempSync(join(tmpdir(), 'mcp-sup-logs-target-'));
  dirs.push(state, outside);
  const logs = join(state, 'logs');
  mkdirSync(logs, { mode: 0o700 });
  const target = join(outside, 'precious');
  writeFileSync(target, 'precious\n');
  const warnings: string[] = [];
  const s = logSource();
  const open = () => {
    const l = new ServerLogs(s.src, { ring: 64 * 1024, files }, state, (m) => warnings.push(m));
    opened.push(l);
    return l;
  };
  // Lines reach the file a batch per turn of the event loop: a refusal is known once the batch was tried.
  const refused = () => eventually(() => warnings.length > 0, 5000, 'the refusal of the log file');
  return { logs, target, warnings, line: s.line, open, refused };
}

const asRoot = process.getuid?.() === 0;

describe('log files are only ever our own regular files', () => {
  it('never writes through a symlink planted at <id>.log, and says so once', async () => {
    const p = planted();
    const link = join(p.logs, 'a.log');
    symlinkSync(p.target, link);
    const logs = p.open();
    for (let i = 0; i < 50; i++) p.line('a', `line ${i} ${'z'.repeat(40)}`);
    await p.refused();
    expect(readFileSync(p.target, 'utf8')).toBe('precious\n');
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toBe(p.target);
    expect(p.warnings).toHaveLength(1);
    expect(p.warnings[0]).toContain(link);
    // The ring does not depend on the file.
    expect(logs.entries('a')).toHaveLength(50);
  });

  it.skipIf(!asRoot)('never appends to a <id>.log owned by another user', async () => {
    const p = planted();
    const theirs = join(p.logs, 'a.log');
    writeFileSync(theirs, 'theirs\n', { mode: 0o644 });
    chownSync(theirs, 65534, 65534);
    const logs = p.open();
    for (let i = 0; i < 5; i++) p.line('a', `line ${i}`);
    await p.refused();
    expect(readFileSync(theirs, 'utf8')).toBe('theirs\n');
    expect(statSync(theirs).uid).toBe(65534);
    expect(p.warnings).toHaveLength(1);
    expect(p.warnings[0]).toContain(theirs);
    expect(logs.entries('a')).toHaveLength(5);
  });

  it('leaves a symlink planted at <id>.log.1 alone when rotating', async () => {
    const p = planted({ keep: 3, size: 512 });
    const link = join(p.logs, 'a.log.1');
    symlinkSync(p.target, link);
    const logs = p.open();
    // 60 lines of ~80 bytes: several rotations' worth.
    for (let i = 0; i < 60; i++) p.line('a', `line ${i} ${'r'.repeat(40)}`);
    await p.refused();
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toBe(p.target);
    expect(readFileSync(p.target, 'utf8')).toBe('precious\n');
    expect(p.warnings).toHaveLength(1);
    expect(p.warnings[0]).toContain(link);
    // What was written before the refusal stays, within the size; nothing was renamed onto the link.
    expect(statSync(join(p.logs, 'a.log')).size).toBeLessThanOrEqual(512);
    expect(logs.entries('a')).toHaveLength(60);
  });

  it('writes no file in a logs/ directory any user can write, and says so once', () => {
    const p = planted();
    chmodSync(p.logs, 0o777);
    const logs = p.open();
    for (let i = 0; i < 5; i++) p.line('a', `line ${i}`);
    expect(readdirSync(p.logs)).toEqual([]);
    expect(p.warnings).toHaveLength(1);
    expect(p.warnings[0]).toContain(p.logs);
    expect(logs.entries('a')).toHaveLength(5);
  });

  it('refuses a planted symlink for a batch written in the turn it filled (64 KiB) as for one a turn later', () => {
    const p = planted({ keep: 2, size: 1024 * 1024 });
    symlinkSync(p.target, join(p.logs, 'a.log'));
    const logs = p.open();
    // ~130 bytes a JSON line: past 64 KiB, so the batch is tried before this loop ends.
    for (let i = 0; i < 1000; i++) p.line('a', `flood ${i} ${'f'.repeat(80)}`);
    expect(p.warnings).toHaveLength(1);
    expect(p.warnings[0]).toContain(join(p.logs, 'a.log'));
    expect(readFileSync(p.target, 'utf8')).toBe('precious\n');
    expect(logs.entries('a').length).toBeGreaterThan(0);
  });

  it('refuses a planted symlink for what waits when the logs close', () => {
    const p = planted();
    const link = join(p.logs, 'a.log');
    symlinkSync(p.target, link);
    const logs = p.open();
    for (let i = 0; i < 5; i++) p.line('a', `line ${i}`);
    logs.close();
    expect(p.warnings).toHaveLength(1);
    expect(p.warnings[0]).toContain(link);
    expect(readFileSync(p.target, 'utf8')).toBe('precious\n');
    expect(readlinkSync(link)).toBe(p.target);
  });

  it('creates its files 0600 and keeps rotating its own', async () => {
    const p = planted({ keep: 2, size: 512 });
    p.open();
    for (let i = 0; i < 30; i++) p.line('a', `line ${i} ${'o'.repeat(40)}`);
    // A batch is written whole in one turn: once it rotated, it is done.
    await eventually(() => existsSync(join(p.logs, 'a.log.1')), 5000, 'the rotated log file');
    expect(p.warnings).toEqual([]);
    for (const f of ['a.log', 'a.log.1']) {
      const st = lstatSync(join(p.logs, f));
      expect(st.isFile()).toBe(true);
      expect(st.mode & 0o777).toBe(0o600);
    }
  });
});
