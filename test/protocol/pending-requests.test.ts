import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAX_JSON_DEPTH } from '../../src/framing/json-depth.js';
import type { JsonRpcMessage } from '../../src/framing/json-rpc.js';
import { RemoteError, SupervisorError } from '../../src/protocol/errors.js';
import type { WriteOutcome } from '../../src/protocol/outgoing-queue.js';
import { PendingRequests } from '../../src/protocol/pending-requests.js';

/** A writer that records every message and answers with the outcome the test sets. */
function writer() {
  const sent: JsonRpcMessage[] = [];
  const state = { outcome: 'sent' as WriteOutcome };
  const write = (m: JsonRpcMessage): WriteOutcome => {
    sent.push(m);
    return state.outcome;
  };
  return { sent, state, write };
}

const cancels = (sent: JsonRpcMessage[]) =>
  sent.filter((m) => 'method' in m && m.method === 'notifications/cancelled');

const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => 'resolved',
    (err: unknown) => (err instanceof SupervisorError ? err.code : String(err)),
  );

const noTimeout = { timeoutMs: 0 };
const ignore = () => {};

afterEach(() => {
  vi.useRealTimers();
});

describe('PendingRequests', () => {
  it('refuses params JSON cannot carry as an invalid call, keeping nothing to time out or cancel', async () => {
    const sent: JsonRpcMessage[] = [];
    const pending = new PendingRequests((m) => {
      const line = JSON.stringify(m);
      sent.push(JSON.parse(line) as JsonRpcMessage);
      return 'sent';
    });
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    for (const args of [{ n: 1n }, cycle]) {
      const refused = pending.send(
        'tools/call',
        { name: 't', arguments: args },
        { timeoutMs: 30_000 },
        ignore,
      );
      await expect(refused).rejects.toMatchObject({
        code: 'UNWRITABLE_REQUEST',
        message: expect.stringMatching(/^invalid call: 'tools\/call' cannot be sent as JSON: /),
      });
    }
    // nothing left whose deadline could send the server a cancel for a request it never got
    expect(pending.size).toBe(0);
    expect(sent).toEqual([]);
    // the next request is written as usual
    void pending.send('tools/list', undefined, noTimeout, ignore);
    expect(sent).toEqual([{ jsonrpc: '2.0', id: 2, method: 'tools/list' }]);
  });

  it('numbers requests from 0 and writes each one with its id, method and params', () => {
    const w = writer();
    const pending = new PendingRequests(w.write);
    void pending.send('initialize', { a: 1 }, noTimeout, ignore);
    void pending.send('tools/list', undefined, noTimeout, ignore);
    expect(w.sent).toEqual([
      { jsonrpc: '2.0', id: 0, method: 'initialize', params: { a: 1 } },
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    ]);
    expect(pending.size).toBe(2);
  });

  it('settles with the result, and a second answer for the same id is dropped', async () => {
    const w = writer();
    const pending = new PendingRequests(w.write);
    const p = pending.send('tools/list', undefined, noTimeout, ignore);
    pending.settle(0, { jsonrpc: '2.0', id: 0, result: { tools: [] } });
    pending.settle(0, { jsonrpc: '2.0', id: 0, error: { code: -1, message: 'late' } });
    await expect(p).resolves.toEqual({ tools: [] });
    expect(pending.size).toBe(0);
  });

  it('rejects with a RemoteError carrying the error code, message and data', async () => {
    const pending = new PendingRequests(writer().write);
    const p = pending.send('tools/call', {}, noTimeout, ignore);
    pending.settle(0, { jsonrpc: '2.0', id: 0, error: { code: -32602, message: 'bad', data: { x: 1 } } });
    const err = await p.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RemoteError);
    expect(err).toMatchObject({ code: -32602, message: 'bad', data: { x: 1 } });
  });

  it('refuses an answer nested deeper than MAX_JSON_DEPTH, but hands a tools/list page on to be sorted', async () => {
    const deep: unknown = JSON.parse(`${'{"a":'.repeat(6000)}1${'}'.repeat(6000)}`);
    const pending = new PendingRequests(writer().write);
    const read = pending.send('resources/read', {}, noTimeout, ignore);
    const list = pending.send('tools/list', undefined, noTimeout, ignore);
    const failed = pending.send('prompts/get', {}, noTimeout, ignore);
    pending.settle(0, { jsonrpc: '2.0', id: 0, result: { contents: [deep] } });
    pending.settle(1, { jsonrpc: '2.0', id: 1, result: { tools: [{ name: 'x', inputSchema: deep }] } });
    pending.settle(2, { jsonrpc: '2.0', id: 2, error: { code: -32000, message: 'no', data: deep } });
    const err = await read.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SupervisorError);
    expect(err).toMatchObject({ code: 'INVALID_RESPONSE' });
    expect((err as Error).message).toBe(
      `resources/read answered with JSON nested more than ${MAX_JSON_DEPTH} levels deep`,
    );
    await expect(list).resolves.toMatchObject({ tools: [{ name: 'x' }] });
    // The error stays the server's, without the data nothing could write out.
    const remote = await failed.catch((e: unknown) => e);
    expect(remote).toBeInstanceOf(RemoteError);
    expect(remote).toMatchObject({ code: -32000, message: 'no', data: undefined });
  });

  it('drops an answer for an id it never sent, leaving the open request untouched', async () => {
    const pending = new PendingRequests(writer().write);
    const p = pending.send('ping', undefined, noTimeout, ignore);
    pending.settle(7, { jsonrpc: '2.0', id: 7, result: {} });
    pending.settle('0', { jsonrpc: '2.0', id: '0', result: {} });
    pending.settleToolResult(9, 'x', undefined);
    pending.failOversize(9, 100);
    expect(pending.size).toBe(1);
    pending.settle(0, { jsonrpc: '2.0', id: 0, result: { ok: true } });
    await expect(p).resolves.toEqual({ ok: true });
  });

  it('a timeout rejects with REQUEST_TIMEOUT, calls onTimeout once and sends notifications/cancelled', async () => {
    vi.useFakeTimers();
    const w = writer();
    const pending = new PendingRequests(w.write);
    const onTimeout = vi.fn();
    const p = codeOf(pending.send('tools/call', { name: 't' }, { timeoutMs: 100 }, onTimeout));
    vi.advanceTimersByTime(99);
    expect(onTimeout).not.toHaveBeenCalled();
    expect(pending.size).toBe(1);
    vi.advanceTimersByTime(1);
    expect(await p).toBe('REQUEST_TIMEOUT');
    expect(onTimeout).toHaveBeenCalledTimes(1);
    expect(cancels(w.sent)).toEqual([
      {
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: 0, reason: 'timed out after 100 ms' },
      },
    ]);
    // the late answer finds no entry
    pending.settle(0, { jsonrpc: '2.0', id: 0, result: {} });
    expect(pending.size).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a timed-out initialize is rejected but never cancelled', async () => {
    vi.useFakeTimers();
    const w = writer();
    const pending = new PendingRequests(w.write);
    const p = codeOf(pending.send('initialize', {}, { timeoutMs: 50 }, ignore));
    vi.advanceTimersByTime(50);
    expect(await p).toBe('REQUEST_TIMEOUT');
    expect(cancels(w.sent)).toEqual([]);
    expect(w.sent).toHaveLength(1);
  });

  it('many requests share one timer, and each still times out at its own bound', async () => {
    vi.useFakeTimers();
    const w = writer();
    const pending = new PendingRequests(w.write);
    const timedOut: string[] = [];
    const onTimeout = (method: string) => timedOut.push(method);
    const codes: Record<string, Promise<string>> = {};
    for (let i = 0; i < 50; i++)
      codes[`a${i}`] = codeOf(pending.send(`a${i}`, {}, { timeoutMs: 100 }, onTimeout));
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(10);
    // sent later with a shorter timeout: its deadline (60) comes before the others' (100)
    codes.short = codeOf(pending.send('short', {}, { timeoutMs: 50 }, onTimeout));
    vi.advanceTimersByTime(20);
    codes.late = codeOf(pending.send('late', {}, { timeoutMs: 100 }, onTimeout));
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(29);
    expect(timedOut).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(timedOut).toEqual(['short']);
    vi.advanceTimersByTime(39);
    expect(timedOut).toEqual(['short']);
    pending.settle(3, { jsonrpc: '2.0', id: 3, result: {} });
    vi.advanceTimersByTime(1);
    expect(timedOut).toHaveLength(50);
    expect(timedOut).not.toContain('a3');
    vi.advanceTimersByTime(29);
    expect(timedOut).toHaveLength(50);
    vi.advanceTimersByTime(1);
    expect(timedOut.at(-1)).toBe('late');
    expect(await codes.late).toBe('REQUEST_TIMEOUT');
    expect(await codes.a3).toBe('resolved');
    expect(pending.size).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('an answer before the timeout: the timer lapses at its time without a cancel or onTimeout, and is not re-armed', async () => {
    vi.useFakeTimers();
    const w = writer();
    const pending = new PendingRequests(w.write);
    const onTimeout = vi.fn();
    const p = pending.send('ping', undefined, { timeoutMs: 100 }, onTimeout);
    pending.settle(0, { jsonrpc: '2.0', id: 0, result: {} });
    await expect(p).resolves.toEqual({});
    // the next call reuses the armed timer rather than clearing and re-creating one
    const q = pending.send('ping', undefined, { timeoutMs: 100 }, onTimeout);
    expect(vi.getTimerCount()).toBe(1);
    pending.settle(1, { jsonrpc: '2.0', id: 1, result: {} });
    await expect(q).resolves.toEqual({});
    vi.advanceTimersByTime(100);
    expect(vi.getTimerCount()).toBe(0);
    expect(onTimeout).not.toHaveBeenCalled();
    expect(cancels(w.sent)).toEqual([]);
  });

  it('with nothing timed left the armed timer holds no process open; a new timed request holds it again', async () => {
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const before = timers();
    const pending = new PendingRequests(writer().write);
    const p = pending.send('ping', undefined, { timeoutMs: 60_000 }, ignore);
    expect(timers()).toBe(before + 1);
    pending.settle(0, { jsonrpc: '2.0', id: 0, result: {} });
    await p;
    expect(timers()).toBe(before);
    const q = pending.send('ping', undefined, { timeoutMs: 60_000 }, ignore);
    expect(timers()).toBe(before + 1);
    pending.failAll(new Error('exited'));
    await q.catch(() => undefined);
    expect(timers()).toBe(before);
  });

  it('an abort rejects with REQUEST_CANCELLED and sends notifications/cancelled with the reason', async () => {
    const w = writer();
    const pending = new PendingRequests(w.write);
    const ac = new AbortController();
    const p = codeOf(pending.send('tools/call', {}, { timeoutMs: 0, signal: ac.signal }, ignore));
    ac.abort();
    expect(await p).toBe('REQUEST_CANCELLED');
    expect(pending.size).toBe(0);
    expect(cancels(w.sent)).toEqual([
      {
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: 0, reason: 'cancelled by the caller' },
      },
    ]);
  });

  it('an aborted initialize is rejected but never cancelled', async () => {
    const w = writer();
    const pending = new PendingRequests(w.write);
    const ac = new AbortController();
    const p = codeOf(pending.send('initialize', {}, { timeoutMs: 0, signal: ac.signal }, ignore));
    ac.abort();
    expect(await p).toBe('REQUEST_CANCELLED');
    expect(cancels(w.sent)).toEqual([]);
  });

  it('a signal already aborted rejects at once and writes nothing', async () => {
    const w = writer();
    const pending = new PendingRequests(w.write);
    const p = codeOf(pending.send('ping', undefined, { timeoutMs: 0, signal: AbortSignal.abort() }, ignore));
    expect(await p).toBe('REQUEST_CANCELLED');
    expect(w.sent).toEqual([]);
    expect(pending.size).toBe(0);
  });

  it('an abort after the answer changes nothing: the listener was removed', async () => {
    const w = writer();
    const pending = new PendingRequests(w.write);
    const ac = new AbortController();
    const removed = vi.spyOn(ac.signal, 'removeEventListener');
    const p = pending.send('ping', undefined, { timeoutMs: 0, signal: ac.signal }, ignore);
    pending.settle(0, { jsonrpc: '2.0', id: 0, result: { pong: 1 } });
    // a long-lived signal shared by many calls must not collect one listener per call
    expect(removed).toHaveBeenCalledWith('abort', expect.any(Function));
    ac.abort();
    await expect(p).resolves.toEqual({ pong: 1 });
    expect(cancels(w.sent)).toEqual([]);
  });

  it('failAll rejects every open request with the given error and sends no cancel', async () => {
    vi.useFakeTimers();
    const w = writer();
    const pending = new PendingRequests(w.write);
    const a = pending.send('ping', undefined, { timeoutMs: 1000 }, ignore).catch((e: unknown) => e);
    const b = pending.send('tools/list', undefined, noTimeout, ignore).catch((e: unknown) => e);
    const gone = new SupervisorError('SERVER_EXITED', 'server exited');
    pending.failAll(gone);
    expect(await a).toBe(gone);
    expect(await b).toBe(gone);
    expect(pending.size).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
    expect(cancels(w.sent)).toEqual([]);
  });

  it('a write that finds the queue full rejects with the queueFull error, and the entry is gone', async () => {
    const w = writer();
    w.state.outcome = 'full';
    const full = new SupervisorError('QUEUE_FULL', 'custom full');
    const pending = new PendingRequests(w.write, () => full);
    const err = await pending.send('ping', undefined, noTimeout, ignore).catch((e: unknown) => e);
    expect(err).toBe(full);
    expect(pending.size).toBe(0);
  });

  it('the default queueFull error is QUEUE_FULL', async () => {
    const w = writer();
    w.state.outcome = 'full';
    const pending = new PendingRequests(w.write);
    expect(await codeOf(pending.send('ping', undefined, noTimeout, ignore))).toBe('QUEUE_FULL');
  });

  it('a write to a closed stream rejects with WRITE_FAILED, and its deadline never fires', async () => {
    vi.useFakeTimers();
    const w = writer();
    w.state.outcome = 'closed';
    const pending = new PendingRequests(w.write);
    const onTimeout = vi.fn();
    expect(await codeOf(pending.send('ping', undefined, { timeoutMs: 100 }, onTimeout))).toBe('WRITE_FAILED');
    expect(pending.size).toBe(0);
    vi.advanceTimersByTime(200);
    expect(vi.getTimerCount()).toBe(0);
    expect(onTimeout).not.toHaveBeenCalled();
    expect(cancels(w.sent)).toEqual([]);
  });

  it('a tools/call carries its result request until settled with text or failed as oversize', async () => {
    const pending = new PendingRequests(writer().write);
    const asText = pending.send(
      'tools/call',
      {},
      { timeoutMs: 0, result: { mode: 'text', maxBytes: 10 } },
      ignore,
    );
    const capped = pending.send(
      'tools/call',
      {},
      { timeoutMs: 0, result: { mode: 'result', maxBytes: 5 } },
      ignore,
    );
    expect(pending.resultFor(0)).toEqual({ mode: 'text', maxBytes: 10 });
    expect(pending.resultFor(1)).toEqual({ mode: 'result', maxBytes: 5 });
    expect(pending.resultFor(2)).toBeUndefined();
    pending.settleToolResult(0, 'hello', undefined);
    pending.failOversize(1, 123);
    await expect(asText).resolves.toEqual({ kind: 'tool-result', text: 'hello', result: undefined });
    expect(await codeOf(capped)).toBe('RESULT_TOO_LARGE');
    expect(pending.resultFor(0)).toBeUndefined();
  });
});
