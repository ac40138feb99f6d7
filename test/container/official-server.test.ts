import { afterEach, expect, it } from 'vitest';
import { SERVER_LABEL } from '../../src/container/settings.js';
import { fleetConfig, fleets } from '../supervisor/fleet.js';
import { containersLabelled, everythingServer, uniqueId } from './boxed.js';
import { describeEngine } from './engine-facts.js';

const f = fleets();
afterEach(() => f.reap());

describeEngine('an official server in a container', (engine) => {
  it('server-everything runs boxed: listed, called, and gone after stop', async () => {
    const id = uniqueId('everything');
    const { sup } = f.create(fleetConfig([everythingServer(id, engine)]));
    await sup.start();
    expect(sup.status()[0]).toMatchObject({ state: 'ready', containment: 'container' });
    expect(sup.listTools().map((t) => t.name)).toContain(`${id}.echo`);
    expect(await sup.callTool(`${id}.echo`, { message: 'boxed' })).toBe('Echo: boxed');
    expect(await sup.callTool(`${id}.get-sum`, { a: 2, b: 3 })).toMatch(/5/);
    await sup.stop();
    expect(await containersLabelled(engine, SERVER_LABEL, id)).toEqual([]);
  });
});
