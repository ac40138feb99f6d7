import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, it } from 'vitest';
import { SERVER_LABEL } from '../../src/container/settings.js';
import { eventually, fixtureServer, fleetConfig, fleets, notices } from '../supervisor/fleet.js';
import { firstLine, tempDir } from '../supervisor/helpers.js';
import { containersLabelled, engineView, uniqueId } from './boxed.js';
import { describeEngine } from './engine-facts.js';

const HOST = fileURLToPath(new URL('../fixtures/container-host.ts', import.meta.url));
const f = fleets();
const dirs: Array<{ cleanup(): void }> = [];
const hosts: ChildProcess[] = [];
const left: Array<{ engine: string; id: string }> = [];
afterEach(async () => {
  await f.reap();
  for (const h of hosts.splice(0)) h.kill('SIGKILL');
  for (const { engine, id } of left.splice(0))
    for (const c of await containersLabelled(engine, SERVER_LABEL, id))
      await engineView(engine).getContainer(c).remove({ force: true });
  for (const d of dirs.splice(0)) d.cleanup();
});

describeEngine('a host killed with SIGKILL', (engine) => {
  it('leaves its container running; the next start with its state directory removes it by label', async () => {
    const t = tempDir();
    dirs.push(t);
    const stateDir = join(t.dir, 'state');
    const id = uniqueId('orphan');
    left.push({ engine, id });
    const host = spawn(
      process.execPath,
      ['--import', 'tsx', HOST, stateDir, join(t.dir, 'trust.json'), engine, id],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    hosts.push(host);
    const { container } = JSON.parse(await firstLine(host)) as { container: string };
    const hostExited = new Promise((r) => host.once('exit', r));
    host.kill('SIGKILL');
    await hostExited;
    // Nothing of ours is left to remove it: the engine keeps it running.
    expect((await engineView(engine).getContainer(container).inspect()).State.Running).toBe(true);

    const { sup, events } = f.create(fleetConfig([fixtureServer('next')]), { stateDir });
    await sup.start();
    await eventually(() => notices(events, 'REAPED').length > 0, 20_000, 'the reap');
    expect(notices(events, 'REAPED')[0]).toMatchObject({
      server: id,
      message: expect.stringContaining(container.slice(0, 12)),
    });
    expect(await containersLabelled(engine, SERVER_LABEL, id)).toEqual([]);
  });
});
