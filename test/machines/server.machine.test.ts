import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, fromPromise, SimulatedClock } from 'xstate';
import {
  type HandshakeInput,
  type ProcessActorInput,
  serverMachine,
  serverStateOf,
  type VetToolsInput,
} from '../../src/machines/server.machine.js';
import { supervisorMachine } from '../../src/machines/supervisor.machine.js';

const config = {
  id: 's',
  timeouts: { startupMs: 1000, callMs: 1000, shutdownMs: 100 },
  health: { intervalMs: 0, timeoutMs: 100, failureThreshold: 3 },
};

const supervised = {
  policy: 'on-failure' as const,
  backoff: { initialMs: 100, multiplier: 2, maxMs: 1000, jitter: 0, resetAfterMs: 10_000 },
  limit: { maxRestarts: 3, windowMs: 60_000 },
};

/** A server machine whose handshake lists `listed` at once and whose vetting waits for the test's answer. */
function vetted(listed: unknown[]) {
  const clock = new SimulatedClock();
  const stops: string[] = [];
  let answer!: (tools: unknown[]) => void;
  const process = fromCallback<{ type: 'STOP'; reason: string; immediate: boolean }, ProcessActorInput>(
    ({ input, sendBack, receive }) => {
      sendBack({ type: 'PROC.SPAWNED', generation: input.generation, pid: 4242, handle: null });
      receive((e) => stops.push(e.reason));
      return () => {};
    },
  );
  const handshake = fromPromise<{ tools: unknown[] }, HandshakeInput>(async () => ({ tools: listed }));
  const vetTools = fromPromise<{ tools: unknown[] }, VetToolsInput>(
    ({ input }) =>
      new Promise((resolve) => {
        answer = (tools) => resolve({ tools: tools.filter((t) => input.tools.includes(t)) });
      }),
  );
  // Under a supervisor: a ready server reports to its parent.
  const root = createActor(
    supervisorMachine.provide({
      actors: { server: serverMachine.provide({ actors: { process, handshake, vetTools } }) },
    }),
    {
      clock,
      input: {
        strategy: 'one_for_one',
        limit: { maxRestarts: 10, windowMs: 60_000 },
        servers: [{ ...config, disabled: false, restart: supervised }],
        now: () => clock.now(),
      },
    },
  );
  root.start();
  const actor = root.getSnapshot().context.refs.s!;
  const flush = () => new Promise((r) => setTimeout(r, 0));
  return { clock, actor, stops, flush, answer: (tools: unknown[]) => answer(tools) };
}

describe('server machine: vetting the tool list', () => {
  it('waiting for changed tools to be approved runs no startup budget, and hosts still see handshaking', async () => {
    const h = vetted(['a', 'b']);
    h.actor.send({ type: 'START' });
    await h.flush();
    expect(h.actor.getSnapshot().matches({ running: { starting: { handshaking: 'vetting' } } })).toBe(true);
    expect(serverStateOf(h.actor.getSnapshot())).toBe('handshaking');
    // Ten startup budgets pass while a person thinks.
    for (let i = 0; i < 10; i++) {
      h.clock.increment(1000);
      await h.flush();
    }
    expect(serverStateOf(h.actor.getSnapshot())).toBe('handshaking');
    expect(h.stops).toEqual([]);
    h.answer(['a']);
    await h.flush();
    expect(serverStateOf(h.actor.getSnapshot())).toBe('ready');
    expect(h.actor.getSnapshot().context.tools).toEqual(['a']);
  });

  it('the budget still ends a handshake that never lists its tools', async () => {
    const clock = new SimulatedClock();
    const stops: string[] = [];
    const process = fromCallback<{ type: 'STOP'; reason: string; immediate: boolean }, ProcessActorInput>(
      ({ input, sendBack, receive }) => {
        sendBack({ type: 'PROC.SPAWNED', generation: input.generation, pid: 4242, handle: null });
        receive((e) => stops.push(e.reason));
        return () => {};
      },
    );
    const handshake = fromPromise<{ tools: unknown[] }, HandshakeInput>(() => new Promise(() => {}));
    const actor = createActor(serverMachine.provide({ actors: { process, handshake } }), {
      clock,
      input: { server: config, now: () => clock.now() },
    });
    actor.start();
    actor.send({ type: 'START' });
    clock.increment(999);
    expect(stops).toEqual([]);
    clock.increment(1);
    expect(stops).toEqual(['startup_timeout']);
    expect(serverStateOf(actor.getSnapshot())).toBe('stopping');
  });
});
