import { afterEach, describe, expect, it } from 'vitest';
import { callToolOutcome, callToolResultOutcome } from '../../src/protocol/tool-calls.js';
import { fixtureConnections } from '../supervisor/helpers.js';

const fx = fixtureConnections();
afterEach(async () => {
  await fx.reap();
  fx.events.length = 0;
});
const call = { timeoutMs: 5000, maxBytes: 65536, label: 'fx.tool', server: 'fx' };
const answers = () => fx.events.filter((e) => e.type === 'call_ok' || e.type === 'call_timeout');

describe('a call on one connection, as an outcome', () => {
  it('TOO_LARGE for an answer over the line limit; the connection lives on', async () => {
    const conn = fx.open(['--oversize', String(3 * 1024 * 1024)], { maxLineBytes: 1024 * 1024 });
    await conn.initialize();
    const outcome = await callToolOutcome(conn, 'big', { bytes: 10 }, call);
    expect(outcome).toMatchObject({ ok: false, code: 'TOO_LARGE', server: 'fx', tool: 'fx.tool' });
    expect(outcome.ok ? '' : outcome.message).toMatch(/^response of \d+ bytes exceeds the line limit/);
    expect(await callToolOutcome(conn, 'echo', { text: 'alive' }, call)).toEqual({ ok: true, text: 'alive' });
  });

  it('INVALID_RESULT for an answer that is no tool result, in both modes', async () => {
    const conn = fx.open(['--invalid-result']);
    await conn.initialize();
    const failure = {
      ok: false,
      code: 'INVALID_RESULT',
      message: 'invalid tool result: content is string, not an array',
      server: 'fx',
      tool: 'fx.tool',
    };
    expect(await callToolOutcome(conn, 'echo', { text: 'x' }, call)).toEqual(failure);
    expect(await callToolResultOutcome(conn, 'echo', { text: 'x' }, call)).toEqual(failure);
  });

  it("TOOL_ERROR keeps the server's capped result in result mode", async () => {
    const conn = fx.open();
    await conn.initialize();
    expect(await callToolResultOutcome(conn, 'fail', { message: 'nope' }, call)).toEqual({
      ok: false,
      code: 'TOOL_ERROR',
      message: 'nope',
      server: 'fx',
      tool: 'fx.tool',
      result: { isError: true, content: [{ type: 'text', text: 'nope' }] },
    });
  });

  it('TIMEOUT names the budget the caller gave, when the time left was less', async () => {
    const conn = fx.open();
    await conn.initialize();
    expect(await callToolOutcome(conn, 'hang', {}, { ...call, timeoutMs: 100, budgetMs: 250 })).toMatchObject(
      {
        code: 'TIMEOUT',
        message: "tool 'fx.tool' timed out after 250 ms",
      },
    );
  });
});

describe('the connection reports each answer and each timeout, as data', () => {
  it('call_ok for every answered request, whatever it says; call_timeout, and no answer, for one that timed out', async () => {
    const conn = fx.open();
    await conn.initialize();
    fx.events.length = 0;
    await callToolOutcome(conn, 'echo', { text: 'a' }, call);
    await callToolOutcome(conn, 'fail', { message: 'b' }, call);
    await callToolOutcome(conn, 'error', { message: 'c' }, call);
    await callToolOutcome(conn, 'hang', {}, { ...call, timeoutMs: 100 });
    expect(await conn.ping(2000)).toBe(true);
    expect(answers()).toEqual([
      { type: 'call_ok', method: 'tools/call' },
      { type: 'call_ok', method: 'tools/call' },
      { type: 'call_ok', method: 'tools/call' },
      { type: 'call_timeout', method: 'tools/call' },
      { type: 'call_ok', method: 'ping' },
    ]);
  });
});
