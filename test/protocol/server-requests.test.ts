import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../../src/framing/json-depth.js';
import type { JsonRpcMessage } from '../../src/framing/json-rpc.js';
import { ServerRequestHandler } from '../../src/protocol/server-requests.js';
import { eventually } from '../supervisor/fleet.js';
import { fixtureConnections, readLog, tempDir } from '../supervisor/helpers.js';

function handler(roots?: string[]) {
  const sent: JsonRpcMessage[] = [];
  const refused: string[] = [];
  const h = new ServerRequestHandler(
    roots,
    (m) => sent.push(m) > 0,
    (m) => refused.push(m),
  );
  return { h, sent, refused };
}

describe('ServerRequestHandler', () => {
  it('answers a ping with {} (id 0 included) and refuses nothing', () => {
    const { h, sent, refused } = handler();
    h.handle({ jsonrpc: '2.0', id: 0, method: 'ping' });
    expect(sent).toEqual([{ jsonrpc: '2.0', id: 0, result: {} }]);
    expect(refused).toEqual([]);
  });

  it('answers roots/list with the configured roots, named by their last segment', () => {
    const { h, sent } = handler(['file:///srv/data/', 'file:///home/me/project']);
    h.handle({ jsonrpc: '2.0', id: 'r', method: 'roots/list' });
    expect(sent).toEqual([
      {
        jsonrpc: '2.0',
        id: 'r',
        result: {
          roots: [
            { uri: 'file:///srv/data/', name: 'data' },
            { uri: 'file:///home/me/project', name: 'project' },
          ],
        },
      },
    ]);
  });

  it('refuses sampling, elicitation, unconfigured roots and unknown methods with -32601 at once', () => {
    const { h, sent, refused } = handler();
    const methods = ['sampling/createMessage', 'elicitation/create', 'roots/list', 'x/unknown'];
    for (const [id, method] of methods.entries()) h.handle({ jsonrpc: '2.0', id, method });
    expect(
      sent.map((m) => [(m as { id: number }).id, (m as { error: { code: number } }).error.code]),
    ).toEqual([
      [0, -32601],
      [1, -32601],
      [2, -32601],
      [3, -32601],
    ]);
    expect(refused).toEqual(methods);
  });
});

describe('ServerRequestHandler: params nested too deep', () => {
  it('answers -32602 at once and counts a refusal, so nothing that answers or forwards it meets the params', () => {
    const { h, sent, refused } = handler(['file:///srv/']);
    const deep: unknown = JSON.parse(`${'{"a":'.repeat(6000)}1${'}'.repeat(6000)}`);
    h.handle({ jsonrpc: '2.0', id: 7, method: 'sampling/createMessage', params: { messages: [deep] } });
    h.handle({ jsonrpc: '2.0', id: 8, method: 'roots/list', params: { _meta: { a: [1] } } });
    expect(sent[0]).toEqual({
      jsonrpc: '2.0',
      id: 7,
      error: { code: -32602, message: `params nested more than ${MAX_JSON_DEPTH} levels deep` },
    });
    // Shallow params are answered as before.
    expect(sent[1]).toMatchObject({ id: 8, result: { roots: [{ uri: 'file:///srv/' }] } });
    expect(refused).toEqual(['sampling/createMessage']);
  });
});

describe('ServerRequestHandler: the rate limit', () => {
  function limited(perSecond: number, burst: number) {
    let now = 0;
    const sent: JsonRpcMessage[] = [];
    const limitedBy: string[] = [];
    const h = new ServerRequestHandler(
      undefined,
      (m) => sent.push(m),
      () => {},
      { perSecond, burst, now: () => now, onLimited: (m) => limitedBy.push(m) },
    );
    const codes = () =>
      sent.map((m) => ('result' in m ? 'ok' : String((m as { error: { code: number } }).error.code)));
    return {
      h,
      sent,
      codes,
      limitedBy,
      at: (ms: number) => {
        now = ms;
      },
    };
  }
  const ping = (id: number) => ({ jsonrpc: '2.0' as const, id, method: 'ping' });

  it('answers the burst, then -32000 at once beyond it, reported once per flood', () => {
    const r = limited(2, 3);
    for (let i = 0; i < 6; i++) r.h.handle(ping(i));
    expect(r.codes()).toEqual(['ok', 'ok', 'ok', '-32000', '-32000', '-32000']);
    expect((r.sent[5] as { id: number }).id).toBe(5);
    expect(r.limitedBy).toEqual(['ping']);
  });

  it('refills at its rate on the injected clock, and a new flood after a full bucket is reported again', () => {
    const r = limited(2, 3);
    for (let i = 0; i < 4; i++) r.h.handle(ping(i));
    r.at(499);
    r.h.handle(ping(4));
    r.at(500);
    r.h.handle(ping(5));
    r.h.handle(ping(6));
    expect(r.codes()).toEqual(['ok', 'ok', 'ok', '-32000', '-32000', 'ok', '-32000']);
    // A token now and then does not end the flood: still one report.
    expect(r.limitedBy).toEqual(['ping']);
    r.at(10_000);
    for (let i = 7; i < 11; i++) r.h.handle(ping(i));
    expect(r.codes().slice(7)).toEqual(['ok', 'ok', 'ok', '-32000']);
    expect(r.limitedBy).toEqual(['ping', 'ping']);
  });

  it('counts every kind of request against one budget, refused methods included', () => {
    const r = limited(1, 2);
    const methods = ['sampling/createMessage', 'roots/list', 'elicitation/create', 'x/unknown'];
    for (const [id, method] of methods.entries()) r.h.handle({ jsonrpc: '2.0', id, method });
    expect(r.codes()).toEqual(['-32601', '-32601', '-32000', '-32000']);
    expect(r.limitedBy).toEqual(['elicitation/create']);
  });
});

describe('a real server sending a burst of requests', () => {
  const fx = fixtureConnections();
  const dirs: Array<{ cleanup(): void }> = [];
  afterEach(async () => {
    await fx.reap();
    fx.events.length = 0;
    for (const d of dirs.splice(0)) d.cleanup();
  });

  it('gets the default budget (burst 200) answered and the rest refused with -32000', async () => {
    const dir = tempDir();
    dirs.push(dir);
    const log = join(dir.dir, 'log');
    const conn = fx.open(['--request-burst', '300', '--log', log]);
    await conn.initialize();
    const answers = () => readLog(log).filter((m) => !('method' in m));
    await eventually(() => answers().length === 300, 5000, '300 answers');
    const ok = answers().filter((m) => 'result' in m).length;
    const refused = answers().filter((m) => (m.error as { code?: number } | undefined)?.code === -32000);
    // The bucket refills at 100/s while the burst is handled: a few more than 200 may pass.
    expect(ok).toBeGreaterThanOrEqual(200);
    expect(ok).toBeLessThanOrEqual(260);
    expect(refused.length).toBe(300 - ok);
    expect(fx.events.filter((e) => e.type === 'rate_limited')).toEqual([
      { type: 'rate_limited', method: 'ping' },
    ]);
  });
});
