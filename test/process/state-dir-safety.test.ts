import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openControl } from '../../src/control/open-control.js';
import { StateDirUnsafeError, secureStateDir } from '../../src/process/state-dir-safety.js';
import { fixtureServer, fleetConfig, fleets } from '../supervisor/fleet.js';
import { tempDir } from '../supervisor/helpers.js';

const f = fleets();
const cleanups: Array<() => void> = [];
afterEach(async () => {
  await f.reap();
  for (const c of cleanups.splice(0)) c();
});

function dir(mode?: number): string {
  const t = tempDir();
  cleanups.push(t.cleanup);
  const d = join(t.dir, 'state');
  if (mode !== undefined) {
    mkdirSync(d);
    chmodSync(d, mode);
  }
  return d;
}

function refusal(fn: () => unknown): StateDirUnsafeError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(StateDirUnsafeError);
    return err as StateDirUnsafeError;
  }
  throw new Error('not refused');
}

const asRoot = process.getuid?.() === 0;

describe('a state directory others can write is refused', () => {
  it('refuses a world-writable directory, saying which, its mode and why', () => {
    const d = dir(0o777);
    const err = refusal(() => secureStateDir(d));
    expect(err).toMatchObject({ code: 'STATE_DIR_UNSAFE', dir: d, mode: 0o777, reason: 'WORLD_WRITABLE' });
    expect(err.message).toContain(d);
    expect(err.message).toContain('0777');
  });

  it('refuses a world-writable logs/ inside a private one', () => {
    const d = dir(0o700);
    mkdirSync(join(d, 'logs'));
    chmodSync(join(d, 'logs'), 0o757);
    expect(refusal(() => secureStateDir(d))).toMatchObject({
      code: 'STATE_DIR_UNSAFE',
      dir: join(d, 'logs'),
      mode: 0o757,
      reason: 'WORLD_WRITABLE',
    });
  });

  it.skipIf(!asRoot)('refuses a group-writable or a foreign directory owned by someone else', () => {
    const d = dir(0o770);
    chownSync(d, 65534, 65534);
    expect(refusal(() => secureStateDir(d))).toMatchObject({ reason: 'GROUP_WRITABLE', owner: 65534 });
    chmodSync(d, 0o755);
    expect(refusal(() => secureStateDir(d))).toMatchObject({ reason: 'NOT_OURS', owner: 65534 });
  });

  it('takes a private directory, and one group-writable that is ours', () => {
    const d = dir(0o700);
    expect(() => secureStateDir(d)).not.toThrow();
    chmodSync(d, 0o770);
    expect(() => secureStateDir(d)).not.toThrow();
  });

  it('creates a missing directory 0700', () => {
    const d = dir();
    secureStateDir(d);
    expect(statSync(d).mode & 0o777).toBe(0o700);
  });
});

describe('a host with stateDir', () => {
  it('is refused at createSupervisor when the directory is world-writable, and nothing is written there', () => {
    const d = dir(0o777);
    const err = refusal(() => f.create(fleetConfig([fixtureServer('a')]), { stateDir: d }));
    expect(err).toMatchObject({ code: 'STATE_DIR_UNSAFE', dir: d });
    expect(readdirSync(d)).toEqual([]);
  });

  it('runs with a 0700 one, its ledger kept there', async () => {
    const d = dir(0o700);
    const { sup } = f.create(fleetConfig([fixtureServer('a')]), { stateDir: d });
    await sup.start();
    expect(sup.status()[0]?.state).toBe('ready');
    expect(readdirSync(d).some((n) => n.startsWith('ledger-'))).toBe(true);
  });

  it('is refused by openControl in a world-writable directory, before any socket is made', async () => {
    const { sup } = f.create(fleetConfig([fixtureServer('a')]));
    const d = dir(0o777);
    const outcome = await openControl(sup, { dir: d, config: '/x.yaml', command: 'run' }).then(
      (control) => {
        cleanups.push(() => void control.close());
        return 'opened';
      },
      (err: unknown) => err,
    );
    expect(outcome).toMatchObject({ code: 'STATE_DIR_UNSAFE', dir: d });
    expect(existsSync(d) && readdirSync(d)).toEqual([]);
  });
});
