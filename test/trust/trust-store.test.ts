import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FingerprintFacts } from '../../src/trust/fingerprint.js';
import { TrustStoreError } from '../../src/trust/trust-error.js';
import { defaultTrustStorePath, TrustStore } from '../../src/trust/trust-store.js';

let dir: string;
let file: string;
const FP1 = '1'.repeat(64);
const FP2 = '2'.repeat(64);

function facts(id: string): FingerprintFacts {
  return {
    id,
    command: 'node',
    executable: '/usr/bin/node',
    executableSha256: 'a'.repeat(64),
    args: ['server.js'],
    cwd: '/srv',
    env: { TOKEN: 'b'.repeat(64) },
    inheritEnv: [],
    scripts: [],
  };
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'mcps-store-'));
  file = join(dir, 'conf', 'mcp-supervisor', 'trust.json');
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

async function corruptError(text: string): Promise<TrustStoreError> {
  mkdirSync(join(dir, 'conf'), { recursive: true });
  const bad = join(dir, 'conf', 'bad.json');
  writeFileSync(bad, text);
  const err = await TrustStore.open(bad).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(TrustStoreError);
  const e = err as TrustStoreError;
  expect(e.code).toBe('corrupt_store');
  expect(e.message).toContain(bad);
  return e;
}

describe('TrustStore', () => {
  it('opens a missing file as an empty store without creating it', async () => {
    const store = await TrustStore.open(file);
    expect(store.list()).toEqual([]);
    expect(store.isTrusted('files', FP1)).toBe(false);
    expect(() => statSync(file)).toThrow();
  });

  it('refuses a corrupt file with an error naming the file and the problem', async () => {
    expect((await corruptError('{ not json')).message).toMatch(/not valid JSON/);
    expect((await corruptError('[]')).message).toMatch(/top level|expected/);
    expect((await corruptError('{"version":2,"servers":{}}')).message).toMatch(/version 2 is not supported/);
    const wrong = JSON.stringify({ version: 1, servers: { files: { id: 'files', fingerprint: 'zz' } } });
    expect((await corruptError(wrong)).message).toMatch(/servers\.files\.fingerprint/);
    const mismatched = JSON.stringify({
      version: 1,
      servers: { files: { id: 'other', fingerprint: FP1, facts: facts('other'), approvedAt: 'x' } },
    });
    expect((await corruptError(mismatched)).message).toMatch(/not its key/);
  });

  it('persists an approval across instances, with a private file in a private directory', async () => {
    const a = await TrustStore.open(file);
    const rec = await a.approve('files', FP1, facts('files'));
    expect(rec).toMatchObject({ id: 'files', fingerprint: FP1, facts: facts('files') });
    expect(Number.isNaN(Date.parse(rec.approvedAt))).toBe(false);
    expect(a.isTrusted('files', FP1)).toBe(true);
    expect(a.isTrusted('files', FP2)).toBe(false);

    const b = await TrustStore.open(file);
    expect(b.get('files')).toEqual(rec);
    expect(b.isTrusted('files', FP1)).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'conf', 'mcp-supervisor')).mode & 0o777).toBe(0o700);
  });

  it('narrows a file that was left readable by others to 0600 on the next write', async () => {
    const a = await TrustStore.open(file);
    await a.approve('files', FP1, facts('files'));
    chmodSync(file, 0o644);
    await a.approve('git', FP2, facts('git'));
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('leaves no temp files behind', async () => {
    const a = await TrustStore.open(file);
    await a.approve('files', FP1, facts('files'));
    await a.approve('git', FP2, facts('git'));
    await a.revoke('git');
    expect(readdirSync(join(dir, 'conf', 'mcp-supervisor'))).toEqual(['trust.json']);
    expect(JSON.parse(readFileSync(file, 'utf8')).servers).toHaveProperty('files');
  });

  it('revokes', async () => {
    const a = await TrustStore.open(file);
    await a.approve('files', FP1, facts('files'));
    expect(await a.revoke('files')).toBe(true);
    expect(await a.revoke('files')).toBe(false);
    expect(a.isTrusted('files', FP1)).toBe(false);
    expect((await TrustStore.open(file)).get('files')).toBeUndefined();
  });

  it('pins tools, keeps them over a re-approval, and refuses pins for an unknown server', async () => {
    const a = await TrustStore.open(file);
    expect(a.toolPins('files')).toBeUndefined();
    await a.approve('files', FP1, facts('files'));
    await a.pinTools('files', { search: 'c'.repeat(64) });
    await a.approve('files', FP2, facts('files'));
    expect((await TrustStore.open(file)).toolPins('files')).toEqual({ search: 'c'.repeat(64) });
    await expect(a.pinTools('nobody', {})).rejects.toMatchObject({ code: 'not_trusted' });
  });

  it('does not let a second instance drop records the first wrote after it opened', async () => {
    const a = await TrustStore.open(file);
    const b = await TrustStore.open(file);
    await a.approve('files', FP1, facts('files'));
    await b.approve('git', FP2, facts('git'));
    expect((await TrustStore.open(file)).list().map((r) => r.id)).toEqual(['files', 'git']);
    expect(b.isTrusted('files', FP1)).toBe(true);
    await a.reload();
    expect(a.isTrusted('git', FP2)).toBe(true);
  });

  it('serializes concurrent writes of one instance', async () => {
    const a = await TrustStore.open(file);
    const ids = ['a', 'b', 'c', 'd', 'e', 'f'];
    await Promise.all(ids.map((id) => a.approve(id, FP1, facts(id))));
    expect((await TrustStore.open(file)).list().map((r) => r.id)).toEqual(ids);
  });

  it('refuses to write over a file that became corrupt', async () => {
    const a = await TrustStore.open(file);
    await a.approve('files', FP1, facts('files'));
    writeFileSync(file, 'garbage');
    await expect(a.approve('git', FP2, facts('git'))).rejects.toMatchObject({ code: 'corrupt_store' });
    expect(readFileSync(file, 'utf8')).toBe('garbage');
  });

  it('hands out copies, not its own state', async () => {
    const a = await TrustStore.open(file);
    await a.approve('files', FP1, facts('files'));
    const rec = a.get('files')!;
    rec.fingerprint = FP2;
    expect(a.isTrusted('files', FP1)).toBe(true);
  });
});

describe('defaultTrustStorePath', () => {
  it('uses XDG_CONFIG_HOME when absolute, else ~/.config', () => {
    expect(defaultTrustStorePath({ XDG_CONFIG_HOME: '/x/cfg', HOME: '/home/u' })).toBe(
      '/x/cfg/mcp-supervisor/trust.json',
    );
    expect(defaultTrustStorePath({ HOME: '/home/u' })).toBe('/home/u/.config/mcp-supervisor/trust.json');
    expect(defaultTrustStorePath({ XDG_CONFIG_HOME: 'rel', HOME: '/home/u' })).toBe(
      '/home/u/.config/mcp-supervisor/trust.json',
    );
  });
});
