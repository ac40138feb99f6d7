import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import type { ServerConfig } from '../../src/config/types.js';
import { fixtureServer, fleetConfig, fleets } from '../supervisor/fleet.js';
import { boxedServer, uniqueId } from './boxed.js';
import { describeEngine, engineAnswers, podmanConf } from './engine-facts.js';

const f = fleets();
const services: ChildProcess[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await f.reap();
  for (const s of services.splice(0)) {
    const gone = new Promise((r) => s.once('exit', r));
    s.kill('SIGTERM');
    await gone;
  }
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** The server with no restart left: a failed start fails it at once. */
const once = (s: ServerConfig): ServerConfig => ({
  ...s,
  restart: { ...s.restart, limit: { maxRestarts: 0, windowMs: 60_000 } },
});

/** A port nothing listens on now (bound, then closed). */
async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as { port: number };
  await new Promise((r) => s.close(r));
  return port;
}

/** Podman's API served on loopback TCP: an engine as another machine's would be reached. */
async function tcpEngine(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-supervisor-tcp-engine-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'containers.conf'), podmanConf);
  const port = await freePort();
  const service = spawn('podman', ['system', 'service', '--time=0', `tcp:127.0.0.1:${port}`], {
    env: { ...process.env, CONTAINERS_CONF: join(dir, 'containers.conf') },
    stdio: 'ignore',
  });
  services.push(service);
  const address = `tcp://127.0.0.1:${port}`;
  for (let i = 0; i < 200 && !(await engineAnswers(address)); i++)
    await new Promise((r) => setTimeout(r, 50));
  return address;
}

describeEngine('engines', (engine) => {
  it('a tcp:// engine (a remote one) runs the server the same way', async () => {
    const remote = await tcpEngine();
    const id = uniqueId('remote');
    const { sup } = f.create(fleetConfig([boxedServer(id, remote)]));
    await sup.start();
    expect(sup.status()[0]).toMatchObject({ state: 'ready', container: { engine: remote } });
    expect(await sup.callTool(`${id}.echo`, { text: 'over tcp' })).toBe('over tcp');
  });

  it('an engine that does not answer fails only its server, with a code that names the address', async () => {
    const port = await freePort();
    const dead = [`unix:///nonexistent/engine.sock`, `tcp://127.0.0.1:${port}`];
    const servers = dead.map((address, i) => once(boxedServer(`dead${i}`, address)));
    const { sup } = f.create(
      fleetConfig([...servers, fixtureServer('sibling'), boxedServer('alive', engine)]),
    );
    await sup.start();
    const rows = sup.status();
    for (const [i, address] of dead.entries()) {
      expect(rows[i]).toMatchObject({
        state: 'failed',
        lastExit: { reason: 'spawn_failed', spawnError: { code: 'ENGINE_UNREACHABLE', engine: address } },
      });
    }
    expect(rows.slice(2).map((r) => r.state)).toEqual(['ready', 'ready']);
  });

  it('an image the engine does not have fails its server saying so, and how to get it', async () => {
    const server = once(boxedServer('noimage', engine, [], { image: 'localhost/no-such-image:1' }));
    const { sup, events } = f.create(fleetConfig([server]));
    await sup.start();
    expect(sup.status()[0]).toMatchObject({
      state: 'failed',
      lastExit: { spawnError: { code: 'IMAGE_MISSING', command: 'localhost/no-such-image:1' } },
    });
    const exit = events.find((e) => e.type === 'exit');
    expect(exit && 'spawnError' in exit ? exit.spawnError?.engine : undefined).toBe(engine);
  });
});
