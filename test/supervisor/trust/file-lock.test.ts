import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { withFileLock } from '../../../src/supervisor/trust/file-lock.js';
import { TrustStoreError } from '../../../src/supervisor/trust/trust-error.js';
import { TrustStore } from '../../../src/supervisor/trust/trust-store.js';

const WRITER = fileURLToPath(new URL('../../fixtures/store-writer.ts', import.meta.url));
let dir: string;
let store: string;
const writers: ReturnType<typeof spawn>[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'mcps-lock-'));
  store = join(dir, 'trust.json');
});
afterEach(() => {
  for (const w of writers.splice(0)) if (w.exitCode === null) w.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

function writer(prefix: string, count: number): Promise<number | null> {
  const child = spawn(process.execPath, ['--import', 'tsx', WRITER, store, prefix, String(count)], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  writers.push(child);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

/** A pid that is certainly not running: a process that has exited and been reaped. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((r) => child.once('exit', r));
  return child.pid!;
}

describe('the trust store lock', () => {
  it('keeps every change when three processes approve into one store at once', async () => {
    const codes = await Promise.all([writer('a', 25), writer('b', 25), writer('c', 25)]);
    expect(codes).toEqual([0, 0, 0]);
    const ids = (await TrustStore.open(store)).list().map((r) => r.id);
    expect(ids).toHaveLength(75);
    for (const p of ['a', 'b', 'c']) for (let i = 0; i < 25; i++) expect(ids).toContain(`${p}${i}`);
  }, 60_000);

  it('runs one holder at a time within a process too, and removes the lock after', async () => {
    let inside = 0;
    let most = 0;
    const op = async () => {
      inside++;
      most = Math.max(most, inside);
      await new Promise((r) => setTimeout(r, 5));
      inside--;
    };
    await Promise.all(Array.from({ length: 5 }, () => withFileLock(store, op)));
    expect(most).toBe(1);
    expect(() => readFileSync(`${store}.lock`)).toThrow(/ENOENT/);
  });

  it('takes over a lock whose holder died, and one left empty by a holder that died before writing', async () => {
    writeFileSync(`${store}.lock`, `${await deadPid()}\n`);
    expect(await withFileLock(store, async () => 'ran')).toBe('ran');
    writeFileSync(`${store}.lock`, '');
    const old = new Date(Date.now() - 10_000);
    utimesSync(`${store}.lock`, old, old);
    expect(await withFileLock(store, async () => 'ran again')).toBe('ran again');
  });

  it('gives up with a locked error naming the live holder, instead of hanging', async () => {
    writeFileSync(`${store}.lock`, `${process.pid}\n`);
    const err = await withFileLock(store, async () => 'never', { timeoutMs: 50 }).catch((e) => e);
    expect(err).toBeInstanceOf(TrustStoreError);
    expect((err as TrustStoreError).code).toBe('locked');
    expect((err as Error).message).toContain(`locked by process ${process.pid}`);
    expect((err as Error).message).toContain(`${store}.lock`);
  });
});
