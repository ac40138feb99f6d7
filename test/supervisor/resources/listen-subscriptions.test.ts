import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ResourceUpdate } from '../../../src/supervisor/resources/outcome.js';
import type { Supervisor } from '../../../src/supervisor/supervisor.js';
import { eventually, fixtureServer, fleetConfig, fleets } from '../fleet.js';
import { tempDir } from '../helpers.js';

const f = fleets();
const dirs: Array<{ cleanup(): void }> = [];
afterEach(async () => {
  await f.reap();
  for (const d of dirs.splice(0)) d.cleanup();
});

const MODERN = join(process.cwd(), 'test/fixtures/modern-server.mjs');

/** The `subscriptions/listen` requests the server received, from its --log (every line it read, as sent). */
function listens(log: string): Array<{ id: unknown; notifications: Record<string, unknown> }> {
  let text = '';
  try {
    text = readFileSync(log, 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as { id?: unknown; method?: string; params?: { notifications?: object } })
    .filter((m) => m.method === 'subscriptions/listen')
    .map((m) => ({ id: m.id, notifications: (m.params?.notifications ?? {}) as Record<string, unknown> }));
}

/** Touches the resource until the listener has heard `count` updates in all (a fresh stream may still be opening). */
async function heard(sup: Supervisor, updates: ResourceUpdate[], count: number): Promise<void> {
  const end = Date.now() + 5000;
  while (updates.length < count) {
    if (Date.now() > end) throw new Error(`only ${updates.length} updates heard, wanted ${count}`);
    expect(await sup.callTool('m.touch', {}, { scopes: [] })).toBe('touched');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('subscriptions/listen on a 2026 server', () => {
  it('carries a resource subscription, and is sent again after every restart of the server', async () => {
    const dir = tempDir();
    dirs.push(dir);
    const log = join(dir.dir, 'm.log');
    const { sup } = f.create(
      fleetConfig([fixtureServer('m', ['--log', log], { args: [MODERN, '--log', log] })]),
    );
    await sup.start();
    const listed = await sup.listResources();
    const uri = listed.ok ? listed.resources.find((r) => r.uri.includes('greeting'))?.uri : undefined;
    expect(uri).toBeDefined();
    const updates: ResourceUpdate[] = [];
    const sub = await sup.subscribeResource(uri!, (u) => updates.push(u));
    expect(sub).toMatchObject({ ok: true, server: 'm' });
    await heard(sup, updates, 1);
    expect(updates[0]).toEqual({ uri, server: 'm' });
    const latest = () => listens(log).at(-1)?.notifications.resourceSubscriptions;
    expect(latest()).toEqual(['fixture://greeting']);

    const pid = sup.status()[0]!.pid!;
    const before = listens(log).length;
    process.kill(pid, 'SIGKILL');
    await eventually(
      () => {
        const s = sup.status()[0]!;
        return s.state === 'ready' && s.pid !== pid;
      },
      10_000,
      'the restart',
    );
    // The new process knows nothing of the old stream: the supervisor opens it again, with the resource in it.
    await eventually(() => listens(log).length > before, 5000, 'a listen to the new process');
    expect(latest()).toEqual(['fixture://greeting']);
    await heard(sup, updates, 2);
    expect(sub.ok && (await sub.unsubscribe())).toBeUndefined();
    // The last listener gone, the stream is opened again without the resource.
    await eventually(() => latest() === undefined, 5000, 'a listen without the resource');
  }, 30_000);
});
