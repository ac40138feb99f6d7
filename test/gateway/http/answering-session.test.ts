import { describe, expect, it } from 'vitest';
import { callerKey, parseCallerKey } from '../../../src/gateway/caller-key.js';
import {
  type AskKind,
  answeringSession,
  type FrontSession,
} from '../../../src/gateway/http/answering-session.js';

const session = (key: string, principal: string | null, ...declared: AskKind[]): FrontSession => ({
  key,
  principal,
  declared: new Set(declared),
});
const call = (principal: string | null, s: string | null, requestId: string | number) =>
  callerKey({ principal, session: s, requestId });

describe('who answers a server’s request', () => {
  const alice = session('g1', 'alice', 'elicitation', 'roots');
  const bob = session('g2', 'bob', 'elicitation', 'roots');
  const alice2 = session('g3', 'alice', 'elicitation');

  it('the session of the call in flight, related to its request, whoever initialized last', () => {
    expect(answeringSession([alice, bob], 'elicitation', [call('alice', 'g1', 7)])).toEqual({
      ok: true,
      session: alice,
      relatedRequestId: 7,
    });
  });

  it('the latest of several calls of one credential whose client can answer', () => {
    const callers = [call('alice', 'g1', 1), call('alice', 'g3', 2)];
    expect(answeringSession([alice, bob, alice2], 'roots', callers)).toMatchObject({ session: alice });
    expect(answeringSession([alice, bob, alice2], 'elicitation', callers)).toMatchObject({ session: alice2 });
  });

  it('nobody when calls of two credentials are in flight, or the caller cannot answer, or has no session', () => {
    const both = [call('alice', 'g1', 1), call('bob', 'g2', 1)];
    expect(answeringSession([alice, bob], 'elicitation', both)).toEqual({
      ok: false,
      why: 'SEVERAL_CALLERS',
    });
    expect(answeringSession([alice, bob], 'sampling', [call('alice', 'g1', 1)])).toEqual({
      ok: false,
      why: 'CALLER_CANNOT_ANSWER',
    });
    // A 2026 request has no session: its client cannot be sent a request, and nobody else is asked instead.
    expect(answeringSession([alice, bob], 'elicitation', [call('bob', null, 4)])).toEqual({
      ok: false,
      why: 'CALLER_CANNOT_ANSWER',
    });
  });

  it('outside any call: the latest able session only when every able one holds the same credential', () => {
    expect(answeringSession([alice, alice2], 'elicitation', [])).toMatchObject({ ok: true, session: alice2 });
    expect(answeringSession([alice, bob], 'roots', [])).toEqual({ ok: false, why: 'NO_CALLER' });
    expect(answeringSession([], 'roots', [])).toEqual({ ok: false, why: 'NO_CALLER' });
    // Without auth every session is the same principal (null).
    const open = [session('g1', null, 'roots'), session('g2', null, 'roots')];
    expect(answeringSession(open, 'roots', [])).toMatchObject({ ok: true, session: open[1] });
  });

  it('reads back only the keys it made', () => {
    expect(parseCallerKey(call('alice', 'g1', 'req-1'))).toEqual({
      principal: 'alice',
      session: 'g1',
      requestId: 'req-1',
    });
    for (const other of ['host-caller', '[]', '[1,2,3]', '["a","b",{}]', '{"a":1}'])
      expect(parseCallerKey(other)).toBeUndefined();
  });
});
