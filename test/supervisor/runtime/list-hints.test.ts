import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SimulatedClock } from 'xstate';
import { eventually, fixtureServer, fleetConfig, fleets } from '../fleet.js';
import { tempDir } from '../helpers.js';

const f = fleets();
const dirs: Array<{ cleanup(): void }> = [];
afterEach(async () => {
  await f.reap();
  for (const d of dirs.splice(0)) d.cleanup();
});

/** The methods the fixture received, in order, from its --log file. */
function methods(log: string): string[] {
  let text = '';
  try {
    text = readFileSync(log, 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => (JSON.parse(l) as { method?: string }).method ?? '(answer)');
}

const lists = (log: string) => methods(log).filter((m) => m === 'tools/list').length;

describe('cache hints on tools/list (MCP 2026-07-28 ttlMs, cacheScope)', () => {
  it('the list is kept for its ttl on the clock, then listed again; the fleet hint is the shortest ttl, private if any is', async () => {
    const dir = tempDir();
    dirs.push(dir);
    const log = join(dir.dir, 'a.log');
    const clock = new SimulatedClock();
    const { sup } = f.create(
      fleetConfig([
        fixtureServer('a', ['--cache-ttl', '60000', '--cache-public', '--log', log]),
        fixtureServer('b', ['--cache-ttl', '90000']),
      ]),
      { clock },
    );
    await sup.start();
    expect(sup.listCacheHint()).toEqual({ ttlMs: 60_000, cacheScope: 'private' });
    expect(lists(log)).toBe(1);
    clock.increment(59_999);
    // A call goes down the same pipe after anything the timer would have sent: its answer means the log holds it.
    expect(await sup.callTool('a.echo', { text: 'x' }, { scopes: [] })).toBe('x');
    expect(lists(log)).toBe(1);
    clock.increment(1);
    await eventually(() => lists(log) === 2, 5000, 'the re-list at the ttl');
    // The server answers in order: once a later call is answered, the re-list's answer is in and the timer re-armed.
    expect(await sup.callTool('a.echo', { text: 'z' }, { scopes: [] })).toBe('z');
    // The re-list armed the timer again: the next one is a whole ttl later.
    clock.increment(59_999);
    expect(await sup.callTool('a.echo', { text: 'y' }, { scopes: [] })).toBe('y');
    expect(lists(log)).toBe(2);
    clock.increment(1);
    await eventually(() => lists(log) === 3, 5000, 'the second re-list');
  });

  it('a server that gives no hint leaves the fleet without one', async () => {
    const { sup } = f.create(
      fleetConfig([fixtureServer('a', ['--cache-ttl', '60000']), fixtureServer('plain')]),
    );
    await sup.start();
    expect(sup.listCacheHint()).toBeUndefined();
    expect(sup.stopServer('plain')).toMatchObject({ ok: true });
    await eventually(() => sup.listCacheHint() !== undefined, 5000, 'the hint of a alone');
    expect(sup.listCacheHint()).toEqual({ ttlMs: 60_000, cacheScope: 'private' });
  });
});

const count = (log: string, method: string) => methods(log).filter((m) => m === method).length;

describe('cache hints on prompts/list, resources/list and resources/templates/list', () => {
  it('each list is kept for its ttl on the clock, then listed again; the fleet hint is per list', async () => {
    const dir = tempDir();
    dirs.push(dir);
    const log = join(dir.dir, 'a.log');
    const clock = new SimulatedClock();
    const lists = ['--prompts', '1', '--resources', '1'];
    const { sup } = f.create(
      fleetConfig([
        fixtureServer('a', [...lists, '--cache-ttl', '60000', '--cache-public', '--log', log]),
        fixtureServer('b', [...lists, '--cache-ttl', '90000']),
      ]),
      { clock },
    );
    await sup.start();
    // Both servers' lists are read just after they are ready: the fleet's is a's ttl with b's private scope.
    const hints = () =>
      (['prompts', 'resources', 'resourceTemplates'] as const).map((l) =>
        JSON.stringify(sup.listCacheHint(l)),
      );
    const fleet = JSON.stringify({ ttlMs: 60_000, cacheScope: 'private' });
    await eventually(() => hints().every((h) => h === fleet), 5000, 'the fleet hint of every list');
    const listed = () =>
      ['prompts/list', 'resources/list', 'resources/templates/list'].map((m) => count(log, m));
    expect(listed()).toEqual([1, 1, 1]);
    clock.increment(59_999);
    // A call goes down the same pipe after anything the timers would have sent: its answer means the log holds it.
    expect(await sup.callTool('a.echo', { text: 'x' }, { scopes: [] })).toBe('x');
    expect(listed()).toEqual([1, 1, 1]);
    clock.increment(1);
    await eventually(() => listed().every((n) => n === 2), 5000, 'the re-lists at the ttl');
  });
});
