// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${keyring:…} references are written literally on purpose
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { deleteKeyring, readKeyring, storeKeyring } from '../../src/secrets/keyring.js';
import { describeKeyring, useKeyringBus } from './keyring-facts.js';

const run = promisify(execFile);

describeKeyring('the OS keyring, on a private Secret Service', (bus) => {
  // This process's keyring calls reach the private bus, never the user's own.
  useKeyringBus(bus);
  const env = () => ({ ...process.env, DBUS_SESSION_BUS_ADDRESS: bus });
  const service = () => `mcp-supervisor-test-${randomUUID()}`;

  it('stores, reads back, replaces and deletes an item; a second delete finds none', async () => {
    const s = service();
    expect(await storeKeyring(s, 'ci', 'first value')).toEqual({ ok: true });
    expect(await readKeyring(s, 'ci')).toEqual({ ok: true, value: 'first value' });
    expect(await storeKeyring(s, 'ci', 'ünïcode ✓ value')).toEqual({ ok: true });
    expect(await readKeyring(s, 'ci')).toEqual({ ok: true, value: 'ünïcode ✓ value' });
    expect(await deleteKeyring(s, 'ci')).toEqual({ ok: true });
    const gone = await readKeyring(s, 'ci');
    expect(gone).toEqual({
      ok: false,
      failure: {
        code: 'SECRET_UNAVAILABLE',
        reason: 'keyring_missing',
        ref: `\${keyring:${s}/ci}`,
        detail: `the keyring has no item for service '${s}', account 'ci'`,
      },
    });
    const again = await deleteKeyring(s, 'ci', { ref: '${keyring:as/written}' });
    expect(again).toMatchObject({
      ok: false,
      failure: { reason: 'keyring_missing', ref: '${keyring:as/written}' },
    });
  });

  it('uses the attributes service and username: secret-tool finds what it stores, and it reads what secret-tool stores', async () => {
    const s = service();
    await run(
      'sh',
      [
        '-c',
        'printf %s "made by secret-tool" | secret-tool store --label=x service "$1" username bob',
        '_',
        s,
      ],
      {
        env: env(),
      },
    );
    expect(await readKeyring(s, 'bob')).toEqual({ ok: true, value: 'made by secret-tool' });
    expect(await storeKeyring(s, 'carol/with/slashes', 'stored here')).toEqual({ ok: true });
    const looked = await run('secret-tool', ['lookup', 'service', s, 'username', 'carol/with/slashes'], {
      env: env(),
    });
    expect(looked.stdout).toBe('stored here');
    await deleteKeyring(s, 'bob');
    await deleteKeyring(s, 'carol/with/slashes');
  });

  it('refuses an item whose secret is not UTF-8 text, without its bytes', async () => {
    const s = service();
    await run(
      'sh',
      ['-c', 'printf "\\377\\376x" | secret-tool store --label=x service "$1" username bin', '_', s],
      {
        env: env(),
      },
    );
    const read = await readKeyring(s, 'bin');
    expect(read).toMatchObject({ ok: false, failure: { reason: 'malformed' } });
    expect(read.ok ? '' : read.failure.detail).toBe(
      `the keyring item for service '${s}', account 'bin' is not UTF-8 text`,
    );
    await deleteKeyring(s, 'bin');
  });

  it('reports a bus that is not there as keyring_unreachable, with no value in it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-sup-nobus-'));
    process.env['DBUS_SESSION_BUS_ADDRESS'] = `unix:path=${join(dir, 'bus')}`;
    try {
      const stored = await storeKeyring('svc', 'acct', 'never-shown-value');
      expect(stored).toMatchObject({
        ok: false,
        failure: { code: 'SECRET_UNAVAILABLE', reason: 'keyring_unreachable' },
      });
      const detail = stored.ok ? '' : stored.failure.detail;
      expect(detail).toBe(
        `no keyring reachable: cannot connect to the session bus at ${join(dir, 'bus')} (ENOENT)`,
      );
      expect(JSON.stringify(stored)).not.toContain('never-shown-value');
      const read = await readKeyring('svc', 'acct');
      expect(read.ok ? '' : read.failure.detail).toMatch(/^no keyring reachable: /);
    } finally {
      process.env['DBUS_SESSION_BUS_ADDRESS'] = bus;
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('gives up on a bus that accepts and never answers within the bound', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-sup-mutebus-'));
    const held: Socket[] = [];
    const mute = createServer((socket) => void held.push(socket));
    await new Promise<void>((r) => mute.listen(join(dir, 'bus'), r));
    process.env['DBUS_SESSION_BUS_ADDRESS'] = `unix:path=${join(dir, 'bus')},guid=0123`;
    try {
      const started = performance.now();
      const read = await readKeyring('svc', 'acct', { timeoutMs: 300 });
      expect(performance.now() - started).toBeLessThan(2000);
      expect(read).toMatchObject({ ok: false, failure: { reason: 'keyring_unreachable' } });
      expect(read.ok ? '' : read.failure.detail).toBe(
        `no keyring reachable: the session bus at ${join(dir, 'bus')} did not answer within 0.3 s`,
      );
      expect(held).toHaveLength(1);
    } finally {
      process.env['DBUS_SESSION_BUS_ADDRESS'] = bus;
      for (const s of held) s.destroy();
      await new Promise((r) => mute.close(r));
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses an empty service or account as malformed, before reaching the keyring', async () => {
    for (const [s, a] of [
      ['', 'acct'],
      ['svc', ''],
    ] as const) {
      const r = await storeKeyring(s, a, 'v');
      expect(r).toMatchObject({ ok: false, failure: { reason: 'malformed' } });
    }
  });
});
