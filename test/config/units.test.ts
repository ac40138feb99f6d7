import { describe, expect, it } from 'vitest';
import { MAX_DURATION_MS, parseDuration, parseSize } from '../../src/config/units.js';

describe('parseDuration', () => {
  it.each([
    ['250ms', 250],
    ['5s', 5000],
    ['1m', 60_000],
    ['1h', 3_600_000],
    ['1.5s', 1500],
    ['1m30s', 90_000],
    ['1h0m5s', 3_605_000],
    ['0s', 0],
    [0, 0],
    [750, 750],
    ['500', 500],
    ['2.5', 2.5],
  ])('reads %j as %d ms', (input, ms) => {
    expect(parseDuration(input)).toEqual({ ok: true, value: ms });
  });

  it.each([
    [
      '5 s',
      'invalid duration "5 s": expected milliseconds or a number with a unit (250ms, 5s, 1m, 1h, 1m30s)',
    ],
    ['1x', 'invalid duration "1x": expected milliseconds or a number with a unit (250ms, 5s, 1m, 1h, 1m30s)'],
    [
      '-1s',
      'invalid duration "-1s": expected milliseconds or a number with a unit (250ms, 5s, 1m, 1h, 1m30s)',
    ],
    ['5S', 'invalid duration "5S": expected milliseconds or a number with a unit (250ms, 5s, 1m, 1h, 1m30s)'],
    ['', 'invalid duration "": expected milliseconds or a number with a unit (250ms, 5s, 1m, 1h, 1m30s)'],
    [-1, 'invalid duration -1: must not be negative'],
    [Number.POSITIVE_INFINITY, 'invalid duration Infinity: not a finite number'],
    [Number.NaN, 'invalid duration NaN: not a finite number'],
    [null, 'invalid duration null: expected milliseconds or a number with a unit (250ms, 5s, 1m, 1h, 1m30s)'],
    [true, 'invalid duration true: expected milliseconds or a number with a unit (250ms, 5s, 1m, 1h, 1m30s)'],
    [
      [1],
      'invalid duration a list: expected milliseconds or a number with a unit (250ms, 5s, 1m, 1h, 1m30s)',
    ],
    ['600h', 'duration "600h" is too long: at most 2147483647 ms (about 24 days)'],
  ])('rejects %j', (input, message) => {
    expect(parseDuration(input)).toEqual({ ok: false, message });
  });

  it.each([
    [10, 'duration 10 has no unit: add one, e.g. 10s or 10ms'],
    ['5000', 'duration "5000" has no unit: add one, e.g. 5000s or 5000ms'],
    ['5', 'duration "5" has no unit: add one, e.g. 5s or 5ms'],
    [2.5, 'duration 2.5 has no unit: add one, e.g. 2.5s or 2.5ms'],
  ])('refuses a bare %j where a unit is required, saying which to add', (input, message) => {
    expect(parseDuration(input, 'error')).toEqual({ ok: false, message });
  });

  it('takes a bare 0 and every unit where a unit is required', () => {
    expect(parseDuration(0, 'error')).toEqual({ ok: true, value: 0 });
    expect(parseDuration('0', 'error')).toEqual({ ok: true, value: 0 });
    expect(parseDuration('10s', 'error')).toEqual({ ok: true, value: 10_000 });
    expect(parseDuration('1m30s', 'error')).toEqual({ ok: true, value: 90_000 });
    expect(parseDuration(-1, 'error')).toEqual({
      ok: false,
      message: 'invalid duration -1: must not be negative',
    });
  });

  it('accepts exactly the longest timer Node honours, and not one ms more', () => {
    expect(parseDuration(MAX_DURATION_MS)).toEqual({ ok: true, value: MAX_DURATION_MS });
    expect(parseDuration(MAX_DURATION_MS + 1).ok).toBe(false);
  });
});

describe('parseSize', () => {
  it.each([
    ['64KiB', 65_536],
    ['1MiB', 1_048_576],
    ['1GiB', 1_073_741_824],
    ['512B', 512],
    ['1.5KiB', 1536],
    ['1KB', 1000],
    ['1kB', 1000],
    ['2MB', 2_000_000],
    ['1GB', 1_000_000_000],
    [4096, 4096],
    ['4096', 4096],
    [0, 0],
  ])('reads %j as %d bytes', (input, bytes) => {
    expect(parseSize(input)).toEqual({ ok: true, value: bytes });
  });

  it.each([
    [
      '64 KiB',
      'invalid size "64 KiB": expected bytes or a number with a unit (512B, 64KiB, 1MiB, 1GiB; kB, MB, GB are powers of 1000)',
    ],
    [
      '1x',
      'invalid size "1x": expected bytes or a number with a unit (512B, 64KiB, 1MiB, 1GiB; kB, MB, GB are powers of 1000)',
    ],
    [
      '64kib',
      'invalid size "64kib": expected bytes or a number with a unit (512B, 64KiB, 1MiB, 1GiB; kB, MB, GB are powers of 1000)',
    ],
    [
      '1TiB',
      'invalid size "1TiB": expected bytes or a number with a unit (512B, 64KiB, 1MiB, 1GiB; kB, MB, GB are powers of 1000)',
    ],
    [-1, 'invalid size -1: must not be negative'],
    [1.5, 'invalid size 1.5: must be a whole number of bytes'],
    ['0.1KiB', 'invalid size "0.1KiB": must be a whole number of bytes'],
    [Number.POSITIVE_INFINITY, 'invalid size Infinity: not a finite number'],
    [
      {},
      'invalid size a mapping: expected bytes or a number with a unit (512B, 64KiB, 1MiB, 1GiB; kB, MB, GB are powers of 1000)',
    ],
  ])('rejects %j', (input, message) => {
    expect(parseSize(input)).toEqual({ ok: false, message });
  });
});
