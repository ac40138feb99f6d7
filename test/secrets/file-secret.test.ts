// biome-ignore-all lint/suspicious/noTemplateCurlyInString: secret references are written literally on purpose
import { chmodSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/parse-config.js';
import { eventually, fleets, transitions } from '../supervisor/fleet.js';
import { FIXTURE, tempDir } from '../supervisor/helpers.js';

const f = fleets();
const dirs: Array<{ cleanup(): void }> = [];
afterEach(async () => {
  await f.reap();
  for (const d of dirs.splice(0)) d.cleanup();
});

/** A value no other text holds, so finding it (or its base64) anywhere is a leak. */
const SECRET = `tok-${Math.random().toString(36).slice(2)}-zq`;
const leaks = (text: string) =>
  text.includes(SECRET) || text.includes(Buffer.from(SECRET).toString('base64'));

function fleetFile(dir: string, tokenRef: string): string {
  const path = join(dir, 'fleet.yaml');
  writeFileSync(
    path,
    [
      'servers:',
      '  fx:',
      `    command: ${process.execPath}`,
      `    args: [${FIXTURE}, "--log", "\${file:token.txt}"]`,
      `    env: { API_TOKEN: "Bearer ${tokenRef}" }`,
      '    timeouts: { startup: 10s }',
      '',
    ].join('\n'),
  );
  return path;
}

describe('a ${file:…} secret', () => {
  it('is read when the server starts: the server gets the value, the config only the reference', async () => {
    const t = tempDir();
    dirs.push(t);
    writeFileSync(join(t.dir, 'token.txt'), `${SECRET}\n`, { mode: 0o600 });
    const config = await loadConfig(fleetFile(t.dir, '${file:token.txt}'));
    expect(config.servers[0]?.env['API_TOKEN']).toBe(`Bearer \${file:${join(t.dir, 'token.txt')}}`);
    expect(leaks(JSON.stringify(config))).toBe(false);

    const state = join(t.dir, 'state');
    const { sup, events } = f.create(config, { stateDir: state });
    await sup.start();
    const env = JSON.parse(await sup.callTool('fx.env')) as Record<string, string>;
    // One trailing newline dropped, the rest of the string kept around it.
    expect(env['API_TOKEN']).toBe(`Bearer ${SECRET}`);
    expect(leaks(JSON.stringify(sup.status()))).toBe(false);
    expect(leaks(JSON.stringify(sup.config))).toBe(false);
    expect(leaks(JSON.stringify(events))).toBe(false);
    await sup.stop();
    for (const file of readdirSync(state)) expect(leaks(readFileSync(join(state, file), 'utf8'))).toBe(false);
    const store = readdirSync(t.dir).filter((n) => n.startsWith('trust'));
    for (const file of store) expect(leaks(readFileSync(join(t.dir, file), 'utf8'))).toBe(false);
  });

  it('rotated, is read at the next start without asking again: the fingerprint covers the reference', async () => {
    const t = tempDir();
    dirs.push(t);
    writeFileSync(join(t.dir, 'token.txt'), 'first-value', { mode: 0o600 });
    let asked = 0;
    const { sup, events } = f.create(await loadConfig(fleetFile(t.dir, '${file:token.txt}')), {
      approve: () => {
        asked++;
        return true;
      },
    });
    await sup.start();
    expect(JSON.parse(await sup.callTool('fx.env'))['API_TOKEN']).toBe('Bearer first-value');
    writeFileSync(join(t.dir, 'token.txt'), 'second-value', { mode: 0o600 });
    sup.restart('fx');
    const readies = () => transitions(events, 'fx').filter((t) => t === 'handshaking>ready').length;
    await eventually(() => readies() === 2, 10_000, 'the restart');
    expect(JSON.parse(await sup.callTool('fx.env'))['API_TOKEN']).toBe('Bearer second-value');
    expect(asked).toBe(1);
  });

  it('rotated, restarts its server at a reload, and only it: the rest of the config did not change', async () => {
    const t = tempDir();
    dirs.push(t);
    writeFileSync(join(t.dir, 'token.txt'), 'first-value', { mode: 0o600 });
    const file = fleetFile(t.dir, '${file:token.txt}');
    writeFileSync(
      file,
      `${readFileSync(file, 'utf8')}  plain:\n    command: ${process.execPath}\n    args: [${FIXTURE}]\n`,
    );
    const { sup } = f.create(await loadConfig(file));
    await sup.start();
    const same = await sup.reload(await loadConfig(file));
    expect(same).toMatchObject({
      ok: true,
      servers: [
        { id: 'fx', action: 'unchanged' },
        { id: 'plain', action: 'unchanged' },
      ],
    });
    writeFileSync(join(t.dir, 'token.txt'), 'second-value', { mode: 0o600 });
    const rotated = await sup.reload(await loadConfig(file));
    expect(rotated).toMatchObject({
      ok: true,
      servers: [
        { id: 'fx', action: 'restarted' },
        { id: 'plain', action: 'unchanged' },
      ],
    });
    expect(JSON.parse(await sup.callTool('fx.env'))['API_TOKEN']).toBe('Bearer second-value');
    expect(JSON.stringify(rotated)).not.toContain('second-value');
  });

  it('that cannot be read fails only its server, SECRET_UNAVAILABLE naming the reference', async () => {
    const t = tempDir();
    dirs.push(t);
    const config = await loadConfig(fleetFile(t.dir, '${file:missing.txt}'));
    const second = structuredClone(config.servers[0]!);
    config.servers.push({ ...second, id: 'plain', env: {}, args: [FIXTURE], secretFields: [] });
    const { sup } = f.create({
      ...config,
      servers: config.servers.map((s) => ({
        ...s,
        restart: { ...s.restart, limit: { maxRestarts: 0, windowMs: 60_000 } },
      })),
    });
    await sup.start();
    const [fx, plain] = sup.status();
    expect(fx).toMatchObject({
      state: 'failed',
      lastExit: { reason: 'spawn_failed', spawnError: { code: 'SECRET_UNAVAILABLE' } },
    });
    expect(fx?.lastExit?.spawnError?.detail).toContain('${file:');
    expect(plain?.state).toBe('ready');
  });

  it('from a file others may read still works, and says so', async () => {
    const t = tempDir();
    dirs.push(t);
    writeFileSync(join(t.dir, 'token.txt'), SECRET);
    chmodSync(join(t.dir, 'token.txt'), 0o644);
    const { sup, events } = f.create(await loadConfig(fleetFile(t.dir, '${file:token.txt}')));
    await sup.start();
    await eventually(
      () => events.some((e) => e.type === 'notice' && e.code === 'SECRET_SHARED'),
      5000,
      'the warning',
    );
    const notice = events.find((e) => e.type === 'notice' && e.code === 'SECRET_SHARED');
    expect(notice && 'message' in notice ? notice.message : '').toMatch(
      /can be read by others than its owner \(mode 644\)/,
    );
    expect(sup.status()[0]?.state).toBe('ready');
  });
});
