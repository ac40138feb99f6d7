import { createServer, type Server } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { fleetConfig, fleets } from '../supervisor/fleet.js';
import { boxedServer, uniqueId } from './boxed.js';
import { describeEngine } from './engine-facts.js';

const f = fleets();
const listeners: Server[] = [];
afterEach(async () => {
  await f.reap();
  for (const l of listeners.splice(0)) l.close();
});

/** A TCP listener on the host's loopback, and its port. */
async function hostListener(): Promise<number> {
  const server = createServer((s) => s.destroy());
  listeners.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return (server.address() as { port: number }).port;
}

describeEngine('what a container keeps a server from', (engine) => {
  it('a read-only root refuses a write; the tmpfs at /tmp takes one', async () => {
    const id = uniqueId('ro');
    const { sup } = f.create(fleetConfig([boxedServer(id, engine, ['--box-tools'])]));
    await sup.start();
    expect(await sup.callTool(`${id}.write_file`, { path: '/srv/planted' })).toBe('EROFS');
    expect(await sup.callTool(`${id}.write_file`, { path: '/tmp/scratch' })).toBe('wrote');
  });

  it('a writable root (readOnly: false) takes the same write: the refusal above is the setting', async () => {
    const id = uniqueId('rw');
    const { sup } = f.create(fleetConfig([boxedServer(id, engine, ['--box-tools'], { readOnly: false })]));
    await sup.start();
    expect(await sup.callTool(`${id}.write_file`, { path: '/srv/planted' })).toBe('wrote');
  });

  it('network none reaches nothing of the host; the host network (opted in) reaches the same listener', async () => {
    const port = await hostListener();
    const boxed = uniqueId('nonet');
    const open = uniqueId('hostnet');
    const { sup } = f.create(
      fleetConfig([
        boxedServer(boxed, engine, ['--box-tools']),
        boxedServer(open, engine, ['--box-tools'], { network: 'host' }),
      ]),
    );
    await sup.start();
    const reach = (id: string) => sup.callTool(`${id}.connect`, { host: '127.0.0.1', port });
    expect(await reach(open)).toBe('connected');
    // Its own loopback has nothing on that port; and there is no other interface to reach the host by.
    expect(await reach(boxed)).toBe('ECONNREFUSED');
    expect(await sup.callTool(`${boxed}.connect`, { host: '10.0.2.2', port })).toMatch(
      /^(ENETUNREACH|EHOSTUNREACH)$/,
    );
  });
});
