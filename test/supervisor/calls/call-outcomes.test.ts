import { afterEach, describe, expect, it } from 'vitest';
import { liveGroups } from '../../../src/process/ledger.js';
import { OUTCOME_CODE_META_KEY } from '../../../src/protocol/call-outcome.js';
import type { Supervisor } from '../../../src/supervisor/supervisor.js';
import { fixtureServer, fleetConfig, fleets } from '../fleet.js';

const f = fleets();
afterEach(async () => {
  await f.reap();
  expect(liveGroups()).toEqual([]);
});

/** One ready fixture server `fx` (its every tool open to all) and one `guarded` whose tools need `mcp.read`. */
async function fleet(): Promise<Supervisor> {
  const { sup } = f.create(
    fleetConfig([fixtureServer('fx'), fixtureServer('guarded', [], { scopesRequired: ['mcp.read'] })]),
    { scopes: 'checked' },
  );
  await sup.start();
  return sup;
}

// Each code as a host reads it from callToolOutcome, beside the text callTool has always rendered for it.
describe('every call outcome carries its code', () => {
  it('a success is ok with its text, even when that text looks like a failure', async () => {
    const sup = await fleet();
    expect(await sup.callToolOutcome('fx.echo', { text: 'hi' })).toEqual({ ok: true, text: 'hi' });
    expect(await sup.callToolOutcome('fx.echo', { text: 'ERROR: not mine' })).toEqual({
      ok: true,
      text: 'ERROR: not mine',
    });
  });

  it('INVALID_CALL for a malformed call from JavaScript', async () => {
    const sup = await fleet();
    const loose = sup.callToolOutcome.bind(sup) as (
      ...a: unknown[]
    ) => ReturnType<Supervisor['callToolOutcome']>;
    expect(await loose(42)).toEqual({
      ok: false,
      code: 'INVALID_CALL',
      message: 'invalid call: tool name must be a string, got a number',
    });
    expect(await loose('fx.echo', [])).toMatchObject({ code: 'INVALID_CALL' });
  });

  it('INVALID_CALL for arguments JSON cannot carry, and the server is still there for the next call', async () => {
    const sup = await fleet();
    expect(await sup.callToolOutcome('fx.echo', { text: 1n })).toMatchObject({
      ok: false,
      code: 'INVALID_CALL',
      message: "invalid call: 'tools/call' cannot be sent as JSON: Do not know how to serialize a BigInt",
      server: 'fx',
      tool: 'fx.echo',
    });
    expect(await sup.callTool('fx.echo', { text: 1n })).toMatch(/^ERROR: invalid call: /);
    expect(await sup.callToolOutcome('fx.echo', { text: 'after' })).toEqual({ ok: true, text: 'after' });
  });

  it('UNKNOWN_TOOL for a name no ready server exposes', async () => {
    const sup = await fleet();
    expect(await sup.callToolOutcome('fx.nothing')).toMatchObject({
      ok: false,
      code: 'UNKNOWN_TOOL',
      message: "unknown tool 'fx.nothing'",
      tool: 'fx.nothing',
    });
    expect(await sup.callToolOutcome('nobody.echo')).toMatchObject({ code: 'UNKNOWN_TOOL' });
  });

  it('FORBIDDEN when the caller lacks a scope, and the server never sees the call', async () => {
    const sup = await fleet();
    expect(await sup.callToolOutcome('guarded.echo', { text: 'x' })).toEqual({
      ok: false,
      code: 'FORBIDDEN',
      message: 'forbidden: missing scopes: mcp.read',
      server: 'guarded',
      tool: 'guarded.echo',
    });
    expect(await sup.callToolOutcome('guarded.echo', { text: 'x' }, { scopes: ['mcp.read'] })).toEqual({
      ok: true,
      text: 'x',
    });
  });

  it('TIMEOUT when the server does not answer in time', async () => {
    const sup = await fleet();
    expect(await sup.callToolOutcome('fx.hang', {}, { timeoutMs: 200 })).toEqual({
      ok: false,
      code: 'TIMEOUT',
      message: "tool 'fx.hang' timed out after 200 ms",
      server: 'fx',
      tool: 'fx.hang',
    });
  });

  it('CANCELLED when the caller aborts, before or during the call', async () => {
    const sup = await fleet();
    const before = new AbortController();
    before.abort();
    expect(await sup.callToolOutcome('fx.hang', {}, { signal: before.signal })).toMatchObject({
      code: 'CANCELLED',
      message: "tool 'fx.hang' cancelled by the caller",
    });
    const during = new AbortController();
    const call = sup.callToolOutcome('fx.hang', {}, { signal: during.signal });
    setTimeout(() => during.abort(), 50);
    expect(await call).toMatchObject({ code: 'CANCELLED', message: "'tools/call' cancelled by the caller" });
  });

  it('REMOTE_ERROR with the JSON-RPC code as data', async () => {
    const sup = await fleet();
    expect(await sup.callToolOutcome('fx.error', { code: -32001, message: 'nope' })).toEqual({
      ok: false,
      code: 'REMOTE_ERROR',
      message: 'server error -32001: nope',
      rpcCode: -32001,
      rpcMessage: 'nope',
      server: 'fx',
      tool: 'fx.error',
    });
  });

  it("TOOL_ERROR for the server's own isError result", async () => {
    const sup = await fleet();
    expect(await sup.callToolOutcome('fx.fail', { message: 'bad input' })).toEqual({
      ok: false,
      code: 'TOOL_ERROR',
      message: 'bad input',
      server: 'fx',
      tool: 'fx.fail',
    });
    expect(await sup.callTool('fx.fail', { message: 'bad input' })).toBe('ERROR: bad input');
  });

  it('INVALID_RESULT for an answer that is no tool result, in callToolResult too', async () => {
    const { sup } = f.create(fleetConfig([fixtureServer('odd', ['--invalid-result'])]));
    await sup.start();
    const message = 'invalid tool result: content is string, not an array';
    expect(await sup.callToolOutcome('odd.echo', { text: 'x' })).toEqual({
      ok: false,
      code: 'INVALID_RESULT',
      message,
      server: 'odd',
      tool: 'odd.echo',
    });
    expect(await sup.callToolResult('odd.echo', { text: 'x' })).toEqual({
      isError: true,
      content: [{ type: 'text', text: `ERROR: ${message}` }],
      _meta: { [OUTCOME_CODE_META_KEY]: 'INVALID_RESULT' },
    });
  });

  it('SERVER_EXITED when the server dies mid-call', async () => {
    const sup = await fleet();
    const outcome = await sup.callToolOutcome('fx.crash', { code: 7 });
    expect(outcome).toMatchObject({ ok: false, code: 'SERVER_EXITED', server: 'fx', tool: 'fx.crash' });
    expect(outcome.ok ? '' : outcome.message).toMatch(/^server exited \(code 7\) during the call/);
  });

  it('SERVER_DOWN when the server has failed', async () => {
    const { sup } = f.create(
      fleetConfig([
        fixtureServer('down', ['--exit-at-start', '3'], {
          restart: { limit: { maxRestarts: 0, windowMs: 60_000 } },
        }),
      ]),
    );
    await sup.start();
    expect(sup.status()[0]!.state).toBe('failed');
    const outcome = await sup.callToolOutcome('down.echo', { text: 'x' });
    expect(outcome).toMatchObject({ ok: false, code: 'SERVER_DOWN', server: 'down', tool: 'down.echo' });
    expect(outcome.ok ? '' : outcome.message).toMatch(/^server 'down' is failed/);
  });

  it('SERVER_DOWN, not UNKNOWN_TOOL, when the server is still starting at the call timeout', async () => {
    const { sup } = f.create(
      fleetConfig([
        fixtureServer('slow', ['--hang-initialize'], {
          timeouts: { startupMs: 30_000, callMs: 200, shutdownMs: 300 },
        }),
      ]),
    );
    void sup.start();
    const outcome = await sup.callToolOutcome('slow.echo', { text: 'x' });
    expect(outcome).toMatchObject({ ok: false, code: 'SERVER_DOWN', server: 'slow', tool: 'slow.echo' });
    expect(sup.status()[0]!.state).toBe('handshaking');
  });

  it('STOPPED once the supervisor was stopped', async () => {
    const sup = await fleet();
    await sup.stop();
    expect(await sup.callToolOutcome('fx.echo', { text: 'x' })).toEqual({
      ok: false,
      code: 'STOPPED',
      message: 'supervisor is stopped',
      tool: 'fx.echo',
    });
  });
});

describe("callToolResult carries the code in _meta['mcp-supervisor/code']", () => {
  it('on a failure of ours: one ERROR: text block and the code', async () => {
    const sup = await fleet();
    expect(await sup.callToolResult('fx.hang', {}, { timeoutMs: 200 })).toEqual({
      isError: true,
      content: [{ type: 'text', text: "ERROR: tool 'fx.hang' timed out after 200 ms" }],
      _meta: { [OUTCOME_CODE_META_KEY]: 'TIMEOUT' },
    });
    expect((await sup.callToolResult('guarded.echo', { text: 'x' }))._meta).toEqual({
      [OUTCOME_CODE_META_KEY]: 'FORBIDDEN',
    });
  });

  it("on the tool's own error: its blocks kept, the code added; a success has no code", async () => {
    const sup = await fleet();
    expect(await sup.callToolResult('fx.fail', { message: 'nope' })).toEqual({
      isError: true,
      content: [{ type: 'text', text: 'nope' }],
      _meta: { [OUTCOME_CODE_META_KEY]: 'TOOL_ERROR' },
    });
    const ok = await sup.callToolResult('fx.echo', { text: 'fine' });
    expect(ok.isError).toBeFalsy();
    expect(ok._meta?.[OUTCOME_CODE_META_KEY]).toBeUndefined();
  });
});
