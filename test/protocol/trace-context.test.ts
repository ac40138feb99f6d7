import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BAGGAGE_MAX_BYTES,
  BAGGAGE_MAX_MEMBERS,
  cleanBaggage,
  cleanTracestate,
  forwardedTrace,
  parseTraceparent,
  TRACESTATE_MAX_LENGTH,
  TRACESTATE_MAX_MEMBERS,
} from '../../src/protocol/trace-context.js';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_ID = '00f067aa0ba902b7';
const VALID = `00-${TRACE_ID}-${PARENT_ID}-01`;
/** A control character: C0, DEL, or the C1 block. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

describe('parseTraceparent', () => {
  it('reads a version-00 header, and a later version for its version-00 fields', () => {
    expect(parseTraceparent(VALID)).toEqual({ traceId: TRACE_ID, parentId: PARENT_ID, flags: '01' });
    expect(parseTraceparent(`00-${TRACE_ID}-${PARENT_ID}-ff`)?.flags).toBe('ff');
    expect(parseTraceparent(`cc-${TRACE_ID}-${PARENT_ID}-01`)?.traceId).toBe(TRACE_ID);
    expect(parseTraceparent(`cc-${TRACE_ID}-${PARENT_ID}-01-what-comes-next`)?.parentId).toBe(PARENT_ID);
  });

  it.each([
    ['a newline at the end', `${VALID}\n`],
    ['a CRLF and a header after it', `${VALID}\r\nx-injected: 1`],
    ['a space before it', ` ${VALID}`],
    ['version ff', `ff-${TRACE_ID}-${PARENT_ID}-01`],
    ['upper-case hex', `00-${TRACE_ID.toUpperCase()}-${PARENT_ID}-01`],
    ['an upper-case version', `0A-${TRACE_ID}-${PARENT_ID}-01`],
    ['an all-zero trace-id', `00-${'0'.repeat(32)}-${PARENT_ID}-01`],
    ['an all-zero parent-id', `00-${TRACE_ID}-${'0'.repeat(16)}-01`],
    ['a short trace-id', `00-${TRACE_ID.slice(1)}-${PARENT_ID}-01`],
    ['a long parent-id', `00-${TRACE_ID}-${PARENT_ID}0-01`],
    ['one flag digit', `00-${TRACE_ID}-${PARENT_ID}-1`],
    ['more after version 00', `${VALID}-00`],
    ['a later version run into its next field', `cc-${TRACE_ID}-${PARENT_ID}-01x`],
    ['no dashes', `00${TRACE_ID}${PARENT_ID}01`],
    ['nothing', ''],
  ])('refuses %s', (_why, value) => {
    expect(parseTraceparent(value)).toBeUndefined();
  });
});

describe('cleanTracestate', () => {
  it('keeps valid members as written, without the whitespace around them', () => {
    expect(cleanTracestate('congo=t61rcWkgMzE, rojo=00f067aa0ba902b7')).toBe(
      'congo=t61rcWkgMzE,rojo=00f067aa0ba902b7',
    );
    expect(cleanTracestate('tenant@vendor=a b')).toBe('tenant@vendor=a b');
  });

  it('drops invalid members and a repeated key, keeping the rest', () => {
    const given = 'a=1,Bad=2,c=3\nx,d=,e=has=equals,f=ok ,a=again,g=ctl\u0007,h=4';
    expect(cleanTracestate(given)).toBe('a=1,f=ok,h=4');
    expect(cleanTracestate('\r\n')).toBeUndefined();
  });

  it('keeps at most 32 members, from the front', () => {
    const members = Array.from({ length: 40 }, (_, i) => `k${i}=v`);
    expect(cleanTracestate(members.join(','))).toBe(members.slice(0, TRACESTATE_MAX_MEMBERS).join(','));
  });

  it('cuts to 512 characters by dropping entries over 128 first, then from the end', () => {
    const long = `big=${'x'.repeat(200)}`;
    // 24 characters each: 20 of them and their commas fill 499 of the 512.
    const small = Array.from({ length: 30 }, (_, i) => `k${String(i).padStart(2, '0')}=${'v'.repeat(20)}`);
    const kept = cleanTracestate([small[0], long, ...small.slice(1)].join(','));
    expect(kept).toBe(small.slice(0, 20).join(','));
    expect(cleanTracestate(`${long},${small[0]}`)).toBe(`${long},${small[0]}`);
  });

  it('takes linear time on a long run of spaces', () => {
    // CPU time, which a loaded machine does not stretch as it does wall time: linear work is a few ms of it, a
    // quadratic scan of 200 000 characters many seconds. No clock to inject: the work itself is the subject.
    const started = process.cpuUsage();
    expect(cleanTracestate(`a=${' '.repeat(200_000)}b`)).toBeUndefined();
    expect(cleanBaggage(`a=${' '.repeat(200_000)}b`)).toBeUndefined();
    const used = process.cpuUsage(started);
    expect((used.user + used.system) / 1000).toBeLessThan(1000);
  });
});

describe('cleanBaggage', () => {
  it('keeps valid members with their properties, written without optional whitespace', () => {
    expect(cleanBaggage('userId=alice, serverNode = DF%2028 ; meta ;k=v,isProduction=false')).toBe(
      'userId=alice,serverNode=DF%2028;meta;k=v,isProduction=false',
    );
    expect(cleanBaggage('empty=')).toBe('empty=');
  });

  it('drops an invalid member whole: no key, a bad key or value, a bad property, a control character', () => {
    expect(cleanBaggage('a=1,=2,b c=3,d=sp ace,e=q"t,f=1;bad prop,g=\r\n,h=5;p=\u00e9,i=9')).toBe('a=1,i=9');
    expect(cleanBaggage('onlykey')).toBeUndefined();
  });

  it('keeps at most 64 members and 8192 bytes, dropping from the end', () => {
    const many = Array.from({ length: 70 }, (_, i) => `k${i}=v`);
    expect(cleanBaggage(many.join(','))).toBe(many.slice(0, BAGGAGE_MAX_MEMBERS).join(','));
    const big = Array.from({ length: 10 }, (_, i) => `k${i}=${'v'.repeat(1000)}`);
    const kept = cleanBaggage(big.join(','))!;
    expect(kept).toBe(big.slice(0, 8).join(','));
    expect(Buffer.byteLength(kept)).toBeLessThanOrEqual(BAGGAGE_MAX_BYTES);
  });
});

describe('forwardedTrace', () => {
  it('drops an invalid traceparent and its tracestate, and keeps the baggage', () => {
    expect(forwardedTrace({ traceparent: `${VALID}\n`, tracestate: 'a=1', baggage: 'k=v' })).toEqual({
      baggage: 'k=v',
    });
    expect(forwardedTrace({ tracestate: 'a=1' })).toBeUndefined();
    expect(forwardedTrace({ traceparent: 7, baggage: ['k=v'] })).toBeUndefined();
  });

  it('writes a later version as version 00, its tracestate cleaned', () => {
    const later = `cc-${TRACE_ID}-${PARENT_ID}-01-more`;
    expect(forwardedTrace({ traceparent: later, tracestate: 'a=1,,B=2' })).toEqual({
      traceparent: VALID,
      tracestate: 'a=1',
    });
  });
});

/** Strings near the grammars, with the characters an attacker would try. */
const nasty = fc.string({
  unit: fc.oneof(
    fc.constantFrom('a', 'z', '0', 'f', 'F', '-', '=', ',', ';', '@', '*', '/', ' ', '\t', '%', '"'),
    fc.constantFrom('\r', '\n', '\u0000', '\u007f', '\u0085', '\u2028', '\u00e9', '\ud83d\ude42'),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
  ),
  maxLength: 600,
});
/** A member that is valid but for what a few characters may spoil, some long enough to reach the byte bounds. */
const member = fc
  .tuple(
    fc.stringMatching(/^[a-z][a-z0-9]{0,6}$/),
    fc.oneof(fc.constant('='), fc.constantFrom(' =', '= ', '\t=', '==')),
    fc.oneof(
      fc.stringMatching(/^[!-~]{1,40}$/),
      // Valid in both grammars, so that enough is kept to reach the bounds.
      fc.stringMatching(/^[a-zA-Z0-9%._~-]{1,40}$/),
      fc.stringMatching(/^[a-zA-Z0-9%._~-]{100,400}$/),
      fc.string({ unit: fc.constantFrom('v', '%', ' ', '\t', '\r', '\n', '\u0000', '\u00e9'), maxLength: 8 }),
    ),
  )
  .map((parts) => parts.join(''));
const listOf = (sep: string) =>
  fc.array(fc.oneof(nasty, member), { maxLength: 80, size: 'max' }).map((a) => a.join(sep));
/** Valid members only, short and long: enough is kept to press on every bound. */
const valid = (length: string) =>
  fc
    .tuple(
      fc.stringMatching(/^[a-z][a-z0-9]{0,6}$/),
      fc.stringMatching(new RegExp(`^[a-zA-Z0-9%._~-]{${length}}$`)),
    )
    .map(([k, v]) => `${k}=${v}`);
const bulk = fc
  .oneof(
    // Many short ones press on the count, middling ones on the length, long ones on the bytes.
    fc.array(valid('1,8'), { maxLength: 80, size: 'max' }),
    fc.array(fc.oneof(valid('1,40'), valid('100,126')), { maxLength: 80, size: 'max' }),
    fc.array(valid('150,300'), { minLength: 30, maxLength: 80 }),
  )
  .map((a) => a.join(','));

describe('nothing forwarded breaks the bounds or carries a control character (property)', () => {
  it('tracestate', () => {
    fc.assert(
      fc.property(fc.oneof(nasty, bulk, listOf(','), listOf(' , ')), (given) => {
        const kept = cleanTracestate(given);
        if (kept === undefined) return;
        expect(kept).not.toMatch(CONTROL);
        expect(kept.length).toBeLessThanOrEqual(TRACESTATE_MAX_LENGTH);
        expect(kept.split(',').length).toBeLessThanOrEqual(TRACESTATE_MAX_MEMBERS);
        expect(cleanTracestate(kept)).toBe(kept);
      }),
      { numRuns: 500 },
    );
  });

  it('baggage', () => {
    fc.assert(
      fc.property(fc.oneof(nasty, bulk, listOf(','), listOf(';'), listOf('\t,')), (given) => {
        const kept = cleanBaggage(given);
        if (kept === undefined) return;
        expect(kept).not.toMatch(CONTROL);
        expect(Buffer.byteLength(kept)).toBeLessThanOrEqual(BAGGAGE_MAX_BYTES);
        expect(kept.split(',').length).toBeLessThanOrEqual(BAGGAGE_MAX_MEMBERS);
        expect(cleanBaggage(kept)).toBe(kept);
      }),
      { numRuns: 500 },
    );
  });

  it('the whole trace context: a forwarded traceparent is valid, and nothing has a control character', () => {
    const hex = (n: number) => fc.stringMatching(new RegExp(`^[0-9a-fA-F]{${n}}$`));
    const traceparent = fc.oneof(
      nasty,
      fc
        .tuple(hex(2), hex(32), hex(16), hex(2), fc.constantFrom('', '\n', '-x', ' '))
        .map(([v, t, p, f, tail]) => `${v}-${t}-${p}-${f}${tail}`),
    );
    const value = fc.oneof(nasty, listOf(','), fc.constant(undefined), fc.integer());
    fc.assert(
      fc.property(traceparent, value, value, (tp, ts, bg) => {
        const out = forwardedTrace({ traceparent: tp, tracestate: ts, baggage: bg });
        for (const v of Object.values(out ?? {})) expect(v).not.toMatch(CONTROL);
        if (out?.traceparent !== undefined) expect(parseTraceparent(out.traceparent)).toBeDefined();
        if (out?.tracestate !== undefined) expect(out.traceparent).toBeDefined();
      }),
      { numRuns: 500 },
    );
  });
});
