import { appendFileSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { forgetGroup, type LedgerEntry, recordGroup } from '../../src/process/ledger.js';
import { LedgerJournal, readLedger } from '../../src/process/ledger-journal.js';
import { persistLedger, reapOrphans } from '../../src/process/state-dir.js';
import { tempDir } from '../supervisor/helpers.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function dir(): string {
  const t = tempDir();
  cleanups.push(t.cleanup);
  return t.dir;
}

// Group ids no process has here (above any pid_max), so nothing is ever signalled.
const entry = (i: number, serverId = `s${i}`): LedgerEntry => ({
  pgid: 5_000_000 + i,
  serverId,
  startedAt: 0,
  procStart: 1,
  owner: 'journal',
  containment: 'pgroup',
});
const host = { pid: 999_999, procStart: 1 };
const servers = (path: string) =>
  (readLedger(readFileSync(path, 'utf8')).groups as LedgerEntry[]).map((g) => g.serverId).sort();

describe('LedgerJournal', () => {
  it('reads back as the groups recorded and not forgotten, the last of each one', () => {
    const path = join(dir(), 'ledger-1-journal.jsonl');
    const j = new LedgerJournal(path, { host, owner: 'journal' });
    j.set(entry(1));
    j.set(entry(2));
    j.set(entry(3));
    j.drop(entry(2).pgid);
    j.set({ ...entry(3), serverId: 'grown' });
    expect(servers(path)).toEqual(['grown', 's1']);
    expect(readLedger(readFileSync(path, 'utf8')).header).toEqual({ host, owner: 'journal' });
    j.drop(entry(1).pgid);
    j.drop(entry(3).pgid);
    expect(existsSync(path)).toBe(false);
    j.close();
    j.close();
    expect(existsSync(path)).toBe(false);
  });

  it('writes a thousand changes as lines, and the file afresh only now and then', () => {
    const d = dir();
    const stop = persistLedger(d, 'journal');
    cleanups.push(stop);
    const path = join(d, `ledger-${process.pid}-journal.jsonl`);
    const inodes = new Set<number>();
    const live = new Set<string>();
    for (let i = 0; i < 1000; i++) {
      recordGroup(entry(i));
      live.add(`s${i}`);
      inodes.add(statSync(path).ino);
    }
    expect(servers(path)).toEqual([...live].sort());
    for (let i = 0; i < 999; i++) {
      forgetGroup(entry(i).pgid);
      live.delete(`s${i}`);
      inodes.add(statSync(path).ino);
      if (i % 97 === 0) expect(servers(path)).toEqual([...live].sort());
    }
    expect(servers(path)).toEqual(['s999']);
    // One file written afresh per change would be 1,999 of them; the journal bounds its slack instead.
    expect(inodes.size).toBeLessThan(20);
    expect(readFileSync(path, 'utf8').split('\n').length).toBeLessThan(2 * 1 + 64 + 2);
    forgetGroup(entry(999).pgid);
    expect(existsSync(path)).toBe(false);
  });
});

describe('reading a dead host ledger', () => {
  it('reads the one-object file an older version wrote', () => {
    const text = JSON.stringify({ host, owner: 'x', groups: [entry(1), entry(2)] });
    expect(readLedger(text).groups).toEqual([entry(1), entry(2)]);
  });

  it('names a line it cannot read and still acts on the rest', () => {
    const d = dir();
    const path = join(d, 'ledger-999999-journal.jsonl');
    writeFileSync(path, `${JSON.stringify({ host, owner: 'journal' })}\n`);
    appendFileSync(path, `${JSON.stringify({ set: entry(1) })}\n`);
    appendFileSync(path, `${JSON.stringify({ set: { ...entry(2), pgid: 0 } })}\n`);
    appendFileSync(path, '{"set": {"pgid": 12'); // cut off mid-line
    expect(readLedger(readFileSync(path, 'utf8')).unreadable).toEqual([expect.stringMatching(/^line 4: /)]);
    const found = reapOrphans(d);
    expect(found.map((f) => [f.server, f.code])).toEqual([
      [null, 'IGNORED_UNPARSABLE'],
      ['s2', 'IGNORED_UNSAFE_PGID'],
    ]);
    expect(found[0]?.detail).toMatch(/^ledger-999999-journal\.jsonl: line 4: /);
    expect(readdirSync(d)).toEqual([]);
  });

  it('refuses a file whose first line is not a header', () => {
    const d = dir();
    writeFileSync(join(d, 'ledger-999999-journal.jsonl'), 'not json\n');
    expect(reapOrphans(d).map((f) => f.code)).toEqual(['IGNORED_UNPARSABLE']);
    expect(readdirSync(d)).toEqual([]);
  });
});
