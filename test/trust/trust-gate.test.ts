import { copyFileSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { liveGroups } from '../../src/process/ledger.js';
import type { ApprovalRequest } from '../../src/supervisor/types.js';
import { eventually, fixtureServer, fleetConfig, fleets } from '../supervisor/fleet.js';
import { FIXTURE, readLog, tempDir } from '../supervisor/helpers.js';

const f = fleets();
const dirs: Array<{ cleanup(): void }> = [];
afterEach(async () => {
  await f.reap();
  for (const d of dirs.splice(0)) d.cleanup();
  expect(liveGroups()).toEqual([]);
});
const tmp = () => {
  const t = tempDir();
  dirs.push(t);
  return t.dir;
};

/** A fixture copy of its own, so a test can edit "the server's code". */
function ownFixture(dir: string): string {
  const path = join(dir, 'server.mjs');
  copyFileSync(FIXTURE, path);
  // Every module the server imports, whichever fixture modes exist by now.
  for (const dep of readdirSync(join(FIXTURE, '..')).filter((f) => /^fixture-.*\.mjs$/.test(f))) {
    copyFileSync(join(FIXTURE, '..', dep), join(dir, dep));
  }
  return path;
}

describe('trust on first use', () => {
  it('never spawns an untrusted server, emits untrusted, and calls resolve ERROR', async () => {
    const store = join(tmp(), 'trust.json');
    const { sup, events } = f.create(fleetConfig([fixtureServer('stranger')]), {
      approve: null,
      trustStore: store,
    });
    await sup.start();
    expect(sup.status()[0]).toMatchObject({ state: 'untrusted' });
    expect(sup.status()[0]!.pid).toBeUndefined();
    // The trust check runs first in `spawning`; no process ever starts, so nothing exits.
    expect(events.some((e) => e.type === 'exit')).toBe(false);
    expect(events.some((e) => e.type === 'state' && e.to === 'handshaking')).toBe(false);
    expect(events.find((e) => e.type === 'untrusted')).toMatchObject({ server: 'stranger' });
    expect(await sup.callTool('stranger.echo')).toBe("ERROR: server 'stranger' is untrusted");
  });

  it('asks once with masked secrets, persists the approval across instances, and asks again when the code changes', async () => {
    const dir = tmp();
    const store = join(dir, 'trust.json');
    const script = ownFixture(dir);
    const server = fixtureServer('mine', [], {
      args: [script],
      env: { API_TOKEN: 'sk-live-1234567890abcdef', MODE: 'dev' },
    });
    const asked: ApprovalRequest[] = [];
    const approve = (r: ApprovalRequest) => {
      asked.push(r);
      return true;
    };
    const one = f.create(fleetConfig([server]), { approve, trustStore: store });
    await one.sup.start();
    expect(one.sup.status()[0]!.state).toBe('ready');
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ kind: 'server', server: 'mine', changes: ['first approval'] });
    expect(asked[0]!.env).toEqual({ API_TOKEN: '***', MODE: 'dev' });
    expect(JSON.stringify(asked[0])).not.toContain('sk-live');
    expect(statSync(store).mode & 0o777).toBe(0o600);
    await one.sup.stop();

    const two = f.create(fleetConfig([server]), { approve, trustStore: store });
    await two.sup.start();
    expect(two.sup.status()[0]!.state).toBe('ready');
    expect(asked).toHaveLength(1);
    await two.sup.stop();

    writeFileSync(script, `${readFileSync(script, 'utf8')}\n// edited\n`);
    const refused = f.create(fleetConfig([server]), {
      approve: (r) => {
        asked.push(r);
        return false;
      },
      trustStore: store,
    });
    await refused.sup.start();
    expect(refused.sup.status()[0]!.state).toBe('untrusted');
    expect(asked).toHaveLength(2);
    expect(asked[1]!.changes.join('\n')).toMatch(/content changed/);
  });

  it('asks again when args, cwd or an env value change', async () => {
    const store = join(tmp(), 'trust.json');
    let asks = 0;
    const approve = (r: ApprovalRequest) => {
      if (r.kind === 'server') asks++;
      return true;
    };
    const variants = [
      fixtureServer('v'),
      fixtureServer('v', ['--tools', '1']),
      fixtureServer('v', ['--tools', '1'], { cwd: tmp() }),
      fixtureServer('v', ['--tools', '1'], { env: { A: '1' } }),
      fixtureServer('v', ['--tools', '1'], { env: { A: '2' } }),
    ];
    for (const v of variants) {
      const { sup } = f.create(fleetConfig([{ ...v, cwd: v.cwd }]), { approve, trustStore: store });
      await sup.start();
      await sup.stop();
    }
    expect(asks).toBe(5);
  });

  it('stop() does not wait for an approval nobody answers', async () => {
    let asked!: () => void;
    const askedOnce = new Promise<void>((r) => {
      asked = r;
    });
    const { sup } = f.create(fleetConfig([fixtureServer('pending')]), {
      approve: () => {
        asked();
        return new Promise<boolean>(() => {});
      },
    });
    const starting = sup.start();
    await askedOnce;
    // The approval never comes: a stop that waited for it would never end, and time the test out.
    await sup.stop();
    await starting;
    expect(sup.status()[0]).toMatchObject({ state: 'stopped' });
    expect(sup.status()[0]!.pid).toBeUndefined();
  });

  it('a corrupt store is a clear refusal, never a silent trust', async () => {
    const store = join(tmp(), 'trust.json');
    writeFileSync(store, '{ not json');
    const { sup, events } = f.create(fleetConfig([fixtureServer('c')]), {
      approve: () => true,
      trustStore: store,
    });
    await sup.start();
    expect(sup.status()[0]!.state).toBe('untrusted');
    const notice = events.find((e) => e.type === 'notice');
    expect(notice).toMatchObject({ server: 'c' });
    expect((notice as { message: string }).message).toContain(store);
    expect(readFileSync(store, 'utf8')).toBe('{ not json');
  });

  it('holds back a tool added after approval until it is approved', async () => {
    const store = join(tmp(), 'trust.json');
    let allowTools = false;
    const approve = (r: ApprovalRequest) => r.kind === 'server' || allowTools;
    const { sup, events } = f.create(fleetConfig([fixtureServer('pin')]), { approve, trustStore: store });
    await sup.start();
    expect(await sup.callTool('pin.change_tools')).toBe('changed');
    await eventually(
      () => events.some((e) => e.type === 'tools' && e.changed.includes('added_1')),
      3000,
      'held',
    );
    expect(sup.listTools().some((t) => t.name === 'pin.added_1')).toBe(false);
    expect(await sup.callTool('pin.added_1')).toBe("ERROR: unknown tool 'pin.added_1'");
    allowTools = true;
    expect(await sup.callTool('pin.change_tools')).toBe('changed');
    await eventually(() => sup.listTools().some((t) => t.name === 'pin.added_2'), 3000, 'approved');
    expect(sup.listTools().some((t) => t.name === 'pin.added_1')).toBe(true);
  });
});

describe('scopes at call time', () => {
  it('denies a call with missing scopes before the server sees it, and a wildcard grants it', async () => {
    const log = join(tmp(), 'log');
    const server = fixtureServer('files', ['--log', log], {
      scopesRequired: ['mcp.read.files'],
      tools: [{ name: 'echo', scopesRequired: ['mcp.write.files'] }],
    });
    const { sup } = f.create(fleetConfig([server]));
    await sup.start();
    expect(sup.listTools().find((t) => t.name === 'files.echo')!.scopesRequired).toEqual([
      'mcp.read.files',
      'mcp.write.files',
    ]);
    expect(await sup.callTool('files.echo', { text: 'x' }, { scopes: ['mcp.read.files'] })).toBe(
      'ERROR: forbidden: missing scopes: mcp.write.files',
    );
    expect(await sup.callTool('files.echo', { text: 'x' }, { scopes: ['mcp.read.*'] })).toBe(
      'ERROR: forbidden: missing scopes: mcp.write.files',
    );
    const calls = () => readLog(log).filter((m) => m.method === 'tools/call');
    expect(calls()).toHaveLength(0);
    expect(
      await sup.callTool('files.echo', { text: 'ok' }, { scopes: ['mcp.read.files', 'mcp.write.*'] }),
    ).toBe('ok');
    expect(calls()).toHaveLength(1);
  });
});

describe('one tool namespace', () => {
  it('list_changed re-lists and diffs; the __ separator gives LLM-safe names; declared-but-missing is reported once', async () => {
    const { sup, events } = f.create(
      fleetConfig([fixtureServer('ns', [], { tools: [{ name: 'ghost', scopesRequired: [] }] })], {
        separator: '__',
      }),
    );
    await sup.start();
    const names = sup.listTools().map((t) => t.name);
    expect(names).toContain('ns__echo');
    for (const n of names) expect(n).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    expect(await sup.callTool('ns__change_tools')).toBe('changed');
    await eventually(() => sup.listTools().some((t) => t.name === 'ns__added_1'), 3000, 'added');
    const diff = events.filter((e) => e.type === 'tools').at(-1);
    expect(diff).toMatchObject({ added: ['ns__added_1'], removed: [], changed: [] });
    sup.restart('ns');
    await eventually(
      () => sup.status()[0]!.restarts === 0 && sup.status()[0]!.state === 'ready',
      3000,
      'restart',
    );
    const ghosts = events.filter((e) => e.type === 'notice' && e.message.includes("'ghost'"));
    expect(ghosts).toHaveLength(1);
  });
});
