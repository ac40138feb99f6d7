import { afterEach, describe, expect, it } from 'vitest';
import type { InspectionEvent } from 'xstate';
import { liveGroups } from '../../../src/process/ledger.js';
import { eventually, fixtureServer, fleetConfig, fleets, transitions } from '../fleet.js';

const f = fleets();
afterEach(async () => {
  await f.reap();
  expect(liveGroups()).toEqual([]);
});

interface Delivered {
  type: string;
  /** The id of the actor that sent it; undefined when it came from outside the actor system. */
  from: string | undefined;
  to: string;
}

/** A fleet of one server `fx` wedged by 3 call timeouts in a row (pings off), recording every CALL.* delivered. */
async function fleet() {
  const calls: Delivered[] = [];
  const inspect = (e: InspectionEvent) => {
    if (e.type !== '@xstate.event') return;
    const type = (e.event as { type: string }).type;
    if (!type.startsWith('CALL.')) return;
    const id = (ref: unknown) => (ref as { id?: string } | undefined)?.id;
    calls.push({ type, from: id(e.sourceRef), to: id(e.actorRef) ?? '' });
  };
  const server = fixtureServer('fx', [], { health: { intervalMs: 0, timeoutMs: 100, failureThreshold: 3 } });
  const { sup, events } = f.create(fleetConfig([server]), { inspect });
  await sup.start();
  const hang = async () =>
    expect(await sup.callTool('fx.hang', {}, { timeoutMs: 150 })).toBe(
      "ERROR: tool 'fx.hang' timed out after 150 ms",
    );
  return { sup, events, calls, hang };
}

// A timeout reaches the server machine before the call that timed out resolves (the connection reports it first),
// so once a call returns, the count it could have moved is settled: no wait is needed to see what it did.
describe('call timeouts and health', () => {
  it('marks a server wedged after 3 consecutive call timeouts, then kills and restarts it as a failure', async () => {
    const { sup, events, hang } = await fleet();
    await hang();
    await hang();
    expect(sup.status()[0]!.state).toBe('ready');
    await hang();
    await eventually(() => transitions(events, 'fx').includes('ready>wedged'), 3000, 'wedged');
    await eventually(() => events.some((e) => e.type === 'exit' && e.server === 'fx'), 3000, 'the exit');
    expect(events.find((e) => e.type === 'exit')).toMatchObject({ reason: 'wedged', signal: 'SIGKILL' });
    await eventually(() => sup.status()[0]!.state === 'ready', 5000, 'the restart');
    expect(sup.status()[0]!.restarts).toBe(1);
    expect(transitions(events, 'fx')).toContain('wedged>backoff');
  });

  it('an answered call clears the count, even one whose text looks like a timeout', async () => {
    const { sup, events, calls, hang } = await fleet();
    await hang();
    await hang();
    // A tool's own text is not a verdict: only the connection's report of an answer counts.
    expect(await sup.callTool('fx.echo', { text: "ERROR: tool 'fx.hang' timed out after 150 ms" })).toBe(
      "ERROR: tool 'fx.hang' timed out after 150 ms",
    );
    await hang();
    await hang();
    expect(calls.map((c) => c.type)).toEqual([
      'CALL.TIMEOUT',
      'CALL.TIMEOUT',
      'CALL.OK',
      'CALL.TIMEOUT',
      'CALL.TIMEOUT',
    ]);
    expect(sup.status()[0]!.state).toBe('ready');
    expect(transitions(events, 'fx')).not.toContain('ready>wedged');
  });

  it('signals travel from the process actor to its server machine; answers without timeouts cost no event', async () => {
    const { sup, calls, hang } = await fleet();
    for (let i = 0; i < 5; i++) expect(await sup.callTool('fx.echo', { text: `${i}` })).toBe(`${i}`);
    expect(calls).toEqual([]);
    await hang();
    expect(await sup.callTool('fx.echo', { text: 'a' })).toBe('a');
    expect(await sup.callTool('fx.echo', { text: 'b' })).toBe('b');
    expect(calls).toEqual([
      { type: 'CALL.TIMEOUT', from: 'process-1', to: 'server:fx' },
      { type: 'CALL.OK', from: 'process-1', to: 'server:fx' },
    ]);
  });
});
