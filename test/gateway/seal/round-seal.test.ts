import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sealSession } from '../../../src/gateway/http/sealed-id.js';
import { ROUND_FOR_MS, RoundSeal } from '../../../src/gateway/seal/round-seal.js';

const key = randomBytes(32);
let now = 1_000_000;
const seal = new RoundSeal(key, () => now);
const round = (requestState?: string) => ({
  resultType: 'input_required',
  inputRequests: { q: { method: 'elicitation/create', params: {} } },
  ...(requestState !== undefined ? { requestState } : {}),
});
const refused = { code: -32602, data: { 'mcp-supervisor/code': 'REQUEST_STATE_REFUSED' } };

describe('sealed requestState', () => {
  it("hides the server's state and opens to it for the same caller, under any seal with the key", () => {
    const out = seal.sealResult(round('secret-state'), 'alice');
    expect(out.requestState).toMatch(/^r1\.[A-Za-z0-9_-]+$/);
    expect(out.requestState).not.toContain('secret');
    expect(out.inputRequests).toEqual(round().inputRequests);
    // Another replica: another RoundSeal, the same key.
    const other = new RoundSeal(key, () => now);
    expect(other.openParams({ name: 't', requestState: out.requestState }, 'alice')).toEqual({
      name: 't',
      requestState: 'secret-state',
    });
  });

  it('gives a round the server sent without state one of its own, which opens to none', () => {
    const out = seal.sealResult(round(), null);
    expect(out.requestState).toMatch(/^r1\./);
    expect(seal.openParams({ name: 't', requestState: out.requestState }, null)).toEqual({ name: 't' });
  });

  it('leaves other results and params without a requestState as they are', () => {
    const done = { content: [], requestState: 'x' };
    expect(seal.sealResult(done, null)).toBe(done);
    const params = { name: 't' };
    expect(seal.openParams(params, null)).toBe(params);
  });

  it("refuses another caller's, another key's, an expired one, a session id, and any altered byte", () => {
    const requestState = seal.sealResult(round('s'), 'alice').requestState as string;
    const open =
      (state: unknown, caller: string | null = 'alice', by = seal) =>
      () =>
        by.openParams({ requestState: state }, caller);
    expect(open(requestState, 'bob')).toThrow(expect.objectContaining(refused));
    expect(open(requestState, null)).toThrow(expect.objectContaining(refused));
    expect(open(requestState, 'alice', new RoundSeal(randomBytes(32)))).toThrow(
      expect.objectContaining(refused),
    );
    expect(open(7)).toThrow(expect.objectContaining(refused));
    // The same key seals session ids; one is never taken for a round.
    const id = sealSession(key, { v: '2025-11-25', caps: {}, info: {}, caller: 'alice', exp: now + 1e6 });
    expect(open(`r1.${id.slice(3)}`)).toThrow(expect.objectContaining(refused));
    now += ROUND_FOR_MS;
    expect(open(requestState)).toThrow(expect.objectContaining(refused));
    now -= ROUND_FOR_MS;
    expect(open(requestState)()).toEqual({ requestState: 's' });
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    fc.assert(
      fc.property(
        fc.integer({ min: 3, max: requestState.length - 1 }),
        fc.integer({ min: 0, max: 63 }),
        (at, to) => {
          const altered = requestState.slice(0, at) + alphabet[to] + requestState.slice(at + 1);
          if (altered === requestState) return true;
          expect(open(altered)).toThrow(expect.objectContaining(refused));
          return true;
        },
      ),
    );
  });
});
