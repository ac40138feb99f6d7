import { afterEach, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../../src/framing/json-depth.js';
import type { SupervisorEvent } from '../../src/supervisor/types.js';
import { eventually, fixtureServer, fleetConfig, fleets } from '../supervisor/fleet.js';
import { expectReaped, ID } from './fault-harness.js';

// Past what JSON.stringify and structuredClone can write (~5,000 levels), in 36 KB of JSON a server sends at once.
const DEPTH = 6000;

const f = fleets();
afterEach(async () => {
  await f.reap();
  await expectReaped();
});

const notices = (events: SupervisorEvent[], code: string) =>
  events.filter(
    (e): e is Extract<SupervisorEvent, { type: 'notice' }> => e.type === 'notice' && e.code === code,
  );

async function deepServer() {
  const { sup, events } = f.create(
    fleetConfig([
      fixtureServer(ID, ['--deep-nesting', String(DEPTH)], {
        restart: { policy: 'never', limit: { maxRestarts: 0, windowMs: 60_000 } },
      }),
    ]),
  );
  await sup.start();
  return { sup, events };
}

describe('a server that sends JSON nested deeper than anything can write out', () => {
  it('is ready without the one tool whose schema nests too deep, with a notice naming it', async () => {
    const { sup, events } = await deepServer();
    // Before, the listing threw measuring the page: the handshake failed, and every tool of the server was lost.
    expect(sup.status()[0]).toMatchObject({ id: ID, state: 'ready' });
    const names = sup.listTools().map((t) => t.name);
    expect(names).toContain(`${ID}.echo`);
    expect(names).toContain(`${ID}.deep_result`);
    expect(names).not.toContain(`${ID}.deep_schema`);
    const [refused] = notices(events, 'TOOL_REFUSED');
    expect(refused).toMatchObject({ server: ID });
    expect(refused!.message).toContain('"deep_schema"');
    expect(refused!.message).toContain(`more than ${MAX_JSON_DEPTH} levels`);
    expect(await sup.callTool(`${ID}.echo`, { text: 'still here' })).toBe('still here');
  });

  it('fails a call whose structuredContent nests too deep with a coded outcome, and the server stays ready', async () => {
    const { sup } = await deepServer();
    const outcome = await sup.callToolOutcome(`${ID}.deep_result`, {});
    expect(outcome).toMatchObject({ ok: false, code: 'INVALID_RESULT' });
    expect(outcome.ok ? '' : outcome.message).toContain(`nests more than ${MAX_JSON_DEPTH} levels deep`);
    expect(sup.status()[0]!.state).toBe('ready');
    expect(await sup.callTool(`${ID}.echo`, { text: 'after' })).toBe('after');
  });

  it('passes a log message on without the data that nests too deep, and says so in a notice', async () => {
    const { sup, events } = await deepServer();
    // A listener that writes events out, as a host's logger or serve does: before, it threw on this one.
    const written: string[] = [];
    sup.subscribe((e) => {
      if (e.type === 'log') written.push(JSON.stringify(e));
    });
    expect(await sup.callTool(`${ID}.deep_log`, {})).toBe('logged');
    await eventually(() => events.some((e) => e.type === 'log'), 5000, 'the log event');
    const log = events.find((e): e is Extract<SupervisorEvent, { type: 'log' }> => e.type === 'log');
    expect(log).toMatchObject({ server: ID, level: 'info' });
    expect(log!.data).toBeUndefined();
    expect(written).toHaveLength(1);
    const [cut] = notices(events, 'MESSAGE_CUT');
    expect(cut).toMatchObject({ server: ID });
    expect(cut!.message).toContain(`more than ${MAX_JSON_DEPTH} levels deep`);
  });

  it('drops a progress notification nested too deep and takes the next one', async () => {
    const { sup } = await deepServer();
    const seen: number[] = [];
    const text = await sup.callTool(`${ID}.deep_progress`, {}, { onProgress: (u) => seen.push(u.progress) });
    expect(text).toBe('progressed');
    // The plain one was sent after the deep one, and progress of a call arrives before its answer.
    expect(seen).toEqual([2]);
  });
});
