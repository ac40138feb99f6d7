import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { withFileLock } from '../../src/trust/file-lock.js';
import { TrustStoreError } from '../../src/trust/trust-error.js';
import { TrustStore } from '../../src/trust/trust-store.js';

const WRITER = fileURLToPath(new URL('../fixtures/store-writer.ts', import.meta.url));
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

function writer(prefix: string, count: number, ...more: string[]): Promise<number | null> {
  const child = spawn(process.execPath, ['--import', 'tsx', WRITER, store, prefix, String(count), ...more], {
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

/** A lock as a holder with this pid leaves it. */
function staleLock(pid: number): void {
  mkdirSync(`${store}.lock`);
  writeFileSync(join(`${store}.lock`, `${pid}.00ff00ff00ff00ff`), '');
}

function facts(id: string) {
  return {
    id,
    command: 'srv',
    executable: null,
    executableSha256: null,
    args: [],
    cwd: '/',
    env: {},
    inheritEnv: [],
    scripts: [],
  };
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
    expect(existsSync(`${store}.lock`)).toBe(false);
  });

  it('takes over a lock whose holder died, and an emptied one', async () => {
    staleLock(await deadPid());
    expect(await withFileLock(store, async () => 'ran')).toBe('ran');
    mkdirSync(`${store}.lock`);
    expect(await withFileLock(store, async () => 'ran again')).toBe('ran again');
    expect(existsSync(`${store}.lock`)).toBe(false);
  });

  it('takes over a lock file of the earlier format whose holder died or never wrote its pid', async () => {
    writeFileSync(`${store}.lock`, `${await deadPid()}\n`);
    expect(await withFileLock(store, async () => 'ran')).toBe('ran');
    writeFileSync(`${store}.lock`, '');
    const old = new Date(Date.now() - 10_000);
    utimesSync(`${store}.lock`, old, old);
    expect(await withFileLock(store, async () => 'ran again')).toBe('ran again');
  });

  it('loses no approval and no revoke when 12 writers meet a stale lock at once', async () => {
    const seeded = await TrustStore.open(store);
    for (let w = 0; w < 12; w++)
      for (let i = 0; i < 8; i++) await seeded.approve(`old${w}_${i}`, 'e'.repeat(64), facts(`old${w}_${i}`));
    staleLock(await deadPid());
    const go = join(dir, 'go');
    const running = Array.from({ length: 12 }, (_, w) => writer(`new${w}_`, 8, `old${w}_`, go));
    // Every writer is up and polling for the go file before it appears.
    const end = Date.now() + 40_000;
    while (readdirSync(dir).filter((f) => f.startsWith('go.ready.0.')).length < 12 && Date.now() < end)
      await new Promise((r) => setTimeout(r, 20));
    writeFileSync(`${go}.0`, '');
    expect(await Promise.all(running)).toEqual(Array(12).fill(0));
    const ids = (await TrustStore.open(store)).list().map((r) => r.id);
    const expected = Array.from({ length: 12 }, (_, w) =>
      Array.from({ length: 8 }, (_, i) => `new${w}_${i}`),
    );
    expect(ids.sort()).toEqual(expected.flat().sort());
    expect(existsSync(`${store}.lock`)).toBe(false);
  }, 60_000);

  it('gives up on a lock holding a file it does not understand, instead of spinning', async () => {
    mkdirSync(`${store}.lock`);
    writeFileSync(join(`${store}.lock`, 'stray'), '');
    const err = await withFileLock(store, async () => 'never', { timeoutMs: 50 }).catch((e) => e);
    expect((err as TrustStoreError).code).toBe('locked');
  });

  it('gives up with a locked error naming the live holder, instead of hanging', async () => {
    staleLock(process.pid);
    const err = await withFileLock(store, async () => 'never', { timeoutMs: 50 }).catch((e) => e);
    expect(err).toBeInstanceOf(TrustStoreError);
    expect((err as TrustStoreError).code).toBe('locked');
    expect((err as Error).message).toContain(`locked by process ${process.pid}`);
    expect((err as Error).message).toContain(`${store}.lock`);
  });
});
