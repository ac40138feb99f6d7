import { afterEach, expect, it } from 'vitest';
import { eventually, fleetConfig, fleets, transitions } from '../supervisor/fleet.js';
import { boxedServer, uniqueId } from './boxed.js';
import { describeEngine } from './engine-facts.js';

const f = fleets();
afterEach(() => f.reap());

describeEngine('a container over its memory limit', (engine) => {
  it('is killed by the kernel, the exit says out of memory, and the restart policy brings it back', async () => {
    const id = uniqueId('oom');
    const server = boxedServer(id, engine, ['--box-tools'], { memoryBytes: 64 * 1024 * 1024 });
    const { sup, events } = f.create(fleetConfig([server]));
    await sup.start();
    expect(await sup.callToolOutcome(`${id}.hold_memory`, { mb: 512 })).toMatchObject({
      ok: false,
      code: 'SERVER_EXITED',
      message: expect.stringContaining('out of memory'),
    });
    await eventually(
      () => transitions(events, id).filter((t) => t === 'handshaking>ready').length === 2,
      30_000,
      'the restart',
    );
    const exit = events.find((e) => e.type === 'exit' && e.server === id);
    expect(exit).toMatchObject({ reason: 'oom', signal: 'SIGKILL' });
    // The states a process server's crash goes through (the exit itself is reported as the `exit` event).
    expect(transitions(events, id).slice(-4)).toEqual([
      'ready>backoff',
      'backoff>spawning',
      'spawning>handshaking',
      'handshaking>ready',
    ]);
    expect(sup.status()[0]?.lastExit).toMatchObject({ reason: 'oom' });
    // The same server within its limit answers: it was the limit, not the tool.
    expect(await sup.callTool(`${id}.hold_memory`, { mb: 8 })).toBe('holding 8 MiB');
  });
});
