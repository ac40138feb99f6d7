import { afterEach, describe, expect, it } from 'vitest';
import type { SupervisorEvent } from '../../src/supervisor/types.js';
import { eventually, fixtureServer, fleetConfig, fleets } from './fleet.js';

const f = fleets();
afterEach(() => f.reap());

const never = { restart: { policy: 'never' as const, limit: { maxRestarts: 0, windowMs: 60_000 } } };

const handshakeNotices = (events: SupervisorEvent[]) =>
  events.filter(
    (e): e is Extract<SupervisorEvent, { type: 'notice' }> =>
      e.type === 'notice' && e.code === 'HANDSHAKE_FAILED',
  );
const exits = (events: SupervisorEvent[]) =>
  events.filter((e): e is Extract<SupervisorEvent, { type: 'exit' }> => e.type === 'exit');

describe('a failed handshake', () => {
  it('says what a server that refused initialize answered, beside the exit that keeps only a code', async () => {
    const { sup, events } = f.create(fleetConfig([fixtureServer('refuser', ['--refuse-initialize'], never)]));
    await sup.start();
    await eventually(() => exits(events).length > 0, 10_000, 'the exit');
    expect(exits(events)[0]).toMatchObject({ server: 'refuser', reason: 'handshake_failed' });
    const [notice] = handshakeNotices(events);
    expect(notice).toMatchObject({ server: 'refuser' });
    expect(notice!.message).toMatch(
      /^handshake failed: initialize refused: -32602: Unsupported protocol version: [\d-]+ \(this server speaks 1999-01-01\)$/,
    );
  });

  it('leaves a server that died in its handshake to its exit: no notice speaks for it', async () => {
    const { sup, events } = f.create(
      fleetConfig([fixtureServer('crasher', ['--crash-in-handshake'], never)]),
    );
    await sup.start();
    await eventually(() => exits(events).length > 0, 10_000, 'the exit');
    expect(exits(events)[0]).toMatchObject({ server: 'crasher', code: 3 });
    expect(handshakeNotices(events)).toEqual([]);
  });
});
