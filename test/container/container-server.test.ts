import { afterEach, expect, it } from 'vitest';
import { SERVER_LABEL } from '../../src/container/settings.js';
import { fleetConfig, fleets, transitions } from '../supervisor/fleet.js';
import { boxedServer, containersLabelled, uniqueId } from './boxed.js';
import { describeEngine } from './engine-facts.js';

const f = fleets();
afterEach(() => f.reap());

describeEngine('a server in a container', (engine) => {
  it('runs through the same machine: ready, called, shown with its container, and removed by stop', async () => {
    const id = uniqueId('boxed');
    const { sup, events } = f.create(fleetConfig([boxedServer(id, engine)]));
    await sup.start();
    const row = sup.status()[0];
    expect(row).toMatchObject({ id, state: 'ready', containment: 'container' });
    expect(row?.container).toMatchObject({ engine, image: 'localhost/mcp-supervisor-test:node' });
    expect(row?.container?.imageId).toMatch(/^(sha256:)?[0-9a-f]{64}$/);
    expect(await containersLabelled(engine, SERVER_LABEL, id)).toEqual([row?.container?.id]);
    expect(await sup.callTool(`${id}.echo`, { text: 'from the box' })).toBe('from the box');
    // Asked about once (its first launch), then spawned: create, attach and start are what `spawning` covers.
    expect(transitions(events, id)).toEqual([
      'stopped>spawning',
      'spawning>approving',
      'approving>handshaking',
      'handshaking>ready',
    ]);
    // Its stderr is kept apart from the protocol, and told as a process's is.
    expect(
      events.some((e) => e.type === 'stderr' && e.server === id && /fixture\[\d+\]: started/.test(e.line)),
    ).toBe(true);
    await sup.stop();
    expect(await containersLabelled(engine, SERVER_LABEL, id)).toEqual([]);
  });

  it('a server that ignores stdin EOF and SIGTERM is killed after the shutdown timeout, and its container removed', async () => {
    const id = uniqueId('stubborn');
    const server = boxedServer(id, engine, ['--ignore-stdin-eof', '--ignore-sigterm']);
    const { sup, events } = f.create(
      fleetConfig([{ ...server, timeouts: { ...server.timeouts, shutdownMs: 300 } }]),
    );
    await sup.start();
    expect(sup.status()[0]?.state).toBe('ready');
    await sup.stop();
    expect(events.find((e) => e.type === 'exit' && e.server === id)).toMatchObject({
      reason: 'stopped',
      signal: 'SIGKILL',
    });
    expect(await containersLabelled(engine, SERVER_LABEL, id)).toEqual([]);
  });
});
