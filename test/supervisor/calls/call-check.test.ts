import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveGroups } from '../../../src/process/ledger.js';
import { checkCall, MAX_TIMEOUT_MS } from '../../../src/supervisor/calls/call-check.js';
import type { Supervisor } from '../../../src/supervisor/supervisor.js';
import { fixtureServer, fleetConfig, fleets } from '../fleet.js';

describe('checkCall', () => {
  it('takes null arguments and options as none, and clamps a timeout past what a timer can hold', () => {
    expect(checkCall('a.b', null, null)).toEqual({ ok: true, name: 'a.b', args: undefined, opts: {} });
    const signal = new AbortController().signal;
    expect(checkCall('a.b', {}, { timeoutMs: 1e300, scopes: ['x'], signal })).toEqual({
      ok: true,
      name: 'a.b',
      args: {},
      opts: { timeoutMs: MAX_TIMEOUT_MS, scopes: ['x'], signal },
    });
    expect(checkCall('a.b', undefined, { timeoutMs: 0.2 })).toMatchObject({ opts: { timeoutMs: 1 } });
  });

  it('refuses every malformed part with an ERROR: naming it', () => {
    const cases: Array<[unknown, unknown, unknown, string]> = [
      [42, {}, {}, 'tool name must be a string, got a number'],
      [undefined, {}, {}, 'tool name must be a string, got a undefined'],
      ['a.b', [1], {}, "arguments of 'a.b' must be an object, got an array"],
      ['a.b', 'text', {}, "arguments of 'a.b' must be an object, got a string"],
      ['a.b', {}, 7, 'call options must be an object, got a number'],
      ['a.b', {}, { scopes: 'admin' }, 'scopes must be an array of strings, got a string'],
      ['a.b', {}, { scopes: ['ok', 1] }, 'scopes must be an array of strings, got an array'],
      ['a.b', {}, { signal: { aborted: false } }, 'signal must be an AbortSignal, got an object'],
      ['a.b', {}, { timeoutMs: Number.NaN }, 'timeoutMs must be a positive, finite number of ms, got NaN'],
      ['a.b', {}, { timeoutMs: 0 }, 'timeoutMs must be a positive, finite number of ms, got 0'],
      ['a.b', {}, { timeoutMs: -5 }, 'timeoutMs must be a positive, finite number of ms, got -5'],
      [
        'a.b',
        {},
        { timeoutMs: Number.POSITIVE_INFINITY },
        'timeoutMs must be a positive, finite number of ms, got Infinity',
      ],
      ['a.b', {}, { timeoutMs: '5s' }, 'timeoutMs must be a positive, finite number of ms, got a string'],
      ['a.b', {}, { pollTaskQuestions: 'yes' }, 'pollTaskQuestions must be a boolean'],
    ];
    for (const [name, args, opts, why] of cases) {
      expect(checkCall(name, args, opts)).toEqual({
        ok: false,
        code: 'INVALID_CALL',
        message: `invalid call: ${why}`,
      });
    }
  });
});

describe('callTool and callToolResult never reject and never hang, whatever a JavaScript caller passes', () => {
  const f = fleets();
  let sup: Supervisor;
  beforeAll(async () => {
    sup = f.create(fleetConfig([fixtureServer('fx')])).sup;
    await sup.start();
  });
  afterAll(async () => {
    await f.reap();
    expect(liveGroups()).toEqual([]);
  });

  // Untyped on purpose: this is what a JavaScript caller can do.
  const loose = () =>
    sup as unknown as Record<'callTool' | 'callToolResult', (...a: unknown[]) => Promise<unknown>>;

  it('answers each malformed call with its ERROR: string', async () => {
    expect(await loose().callTool(42)).toBe('ERROR: invalid call: tool name must be a string, got a number');
    expect(await loose().callTool('fx.echo', { text: 'hi' }, null)).toBe('hi');
    expect(await loose().callTool('fx.echo', null)).toBe('');
    expect(await loose().callTool('fx.echo', {}, { scopes: 'admin' })).toBe(
      'ERROR: invalid call: scopes must be an array of strings, got a string',
    );
    expect(await loose().callToolResult('fx.echo', {}, { timeoutMs: Number.NaN })).toEqual({
      isError: true,
      content: [
        {
          type: 'text',
          text: 'ERROR: invalid call: timeoutMs must be a positive, finite number of ms, got NaN',
        },
      ],
      _meta: { 'mcp-supervisor/code': 'INVALID_CALL' },
    });
  });

  it('a huge timeoutMs is clamped, not overflowed into an instant timeout', async () => {
    expect(await sup.callTool('fx.slow', { ms: 50 }, { timeoutMs: 1e15 })).toBe('done');
    expect(await sup.callTool('fx.slow', { ms: 50 }, { timeoutMs: MAX_TIMEOUT_MS + 1 })).toBe('done');
  });

  it('an already aborted signal answers at once', async () => {
    const ac = new AbortController();
    ac.abort();
    expect(await sup.callTool('fx.echo', { text: 'x' }, { signal: ac.signal })).toBe(
      "ERROR: tool 'fx.echo' cancelled by the caller",
    );
  });

  it('property: for junk names, arguments and options, both resolve within 3 s to an ERROR: or a real result', async () => {
    const aborted = new AbortController();
    aborted.abort();
    const timeout = fc.oneof(
      fc.double(),
      fc.integer(),
      fc.constantFrom(
        Number.NaN,
        0,
        -1,
        Number.POSITIVE_INFINITY,
        Number.NEGATIVE_INFINITY,
        1e300,
        2 ** 31,
        1,
      ),
      fc.anything(),
    );
    const opts = fc.oneof(
      fc.anything(),
      fc.constant(null),
      fc.record(
        {
          scopes: fc.oneof(fc.anything(), fc.array(fc.string()), fc.string()),
          timeoutMs: timeout,
          signal: fc.oneof(
            fc.anything(),
            fc.constant(aborted.signal),
            fc.constant(new AbortController().signal),
          ),
        },
        { requiredKeys: [] },
      ),
    );
    const name = fc.oneof(
      fc.anything(),
      fc.string(),
      fc.constantFrom('fx.echo', 'fx.add', 'fx.nope', 'no.echo'),
    );
    const args = fc.oneof(fc.anything(), fc.record({ text: fc.string() }), fc.constant(null));
    const real = new Set(['fx.echo', 'fx.add']);
    await fc.assert(
      fc.asyncProperty(name, args, opts, fc.boolean(), async (n, a, o, asResult) => {
        const call = asResult ? loose().callToolResult(n, a, o) : loose().callTool(n, a, o);
        const outcome = await Promise.race([
          call.then(
            (value) => ({ value }),
            (err: unknown) => ({ rejected: String(err) }),
          ),
          new Promise<{ hung: true }>((r) => setTimeout(() => r({ hung: true }), 3000)),
        ]);
        expect(outcome).toHaveProperty('value');
        const value = (outcome as { value: unknown }).value;
        const text = asResult
          ? (value as { content: Array<{ text?: unknown }>; isError?: boolean }).isError
            ? (value as { content: Array<{ text: string }> }).content[0]!.text
            : undefined
          : (value as string);
        if (text === undefined || !text.startsWith('ERROR: ')) {
          // Only a well-formed call to a real tool may answer with something other than an error.
          expect(typeof n === 'string' && real.has(n)).toBe(true);
        }
        if (asResult) expect(Array.isArray((value as { content: unknown }).content)).toBe(true);
        else expect(typeof value).toBe('string');
      }),
      { numRuns: 300 },
    );
  }, 60_000);
});
