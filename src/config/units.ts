// Durations and sizes as a person writes them in a config. Strict on purpose: `5 s` or `1x` is a typo worth
// reporting, not something to guess at.

/** The result of reading a unit value: the number, or why it could not be read. */
export type UnitResult = { ok: true; value: number } | { ok: false; message: string };

/** The longest duration accepted: Node's timers fire at once beyond 2^31-1 ms instead of waiting. */
export const MAX_DURATION_MS = 2_147_483_647;

const DURATION_UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
const SIZE_UNITS: Record<string, number> = {
  B: 1,
  KiB: 1024,
  MiB: 1024 ** 2,
  GiB: 1024 ** 3,
  kB: 1000,
  KB: 1000,
  MB: 1000 ** 2,
  GB: 1000 ** 3,
};

const PLAIN_NUMBER = /^\d+(?:\.\d+)?$/;
const DURATION = /^(?:\d+(?:\.\d+)?(?:ms|s|m|h))+$/;
const DURATION_PART = /(\d+(?:\.\d+)?)(ms|s|m|h)/g;
const SIZE = /^(\d+(?:\.\d+)?)(B|KiB|MiB|GiB|kB|KB|MB|GB)$/;

const DURATION_HELP = {
  ms: 'expected milliseconds or a number with a unit (250ms, 5s, 1m, 1h, 1m30s)',
  error: 'expected a number with a unit (250ms, 5s, 1m, 1h, 1m30s)',
};
const SIZE_HELP =
  'expected bytes or a number with a unit (512B, 64KiB, 1MiB, 1GiB; kB, MB, GB are powers of 1000)';

/**
 * How a number without a unit reads: `ms` for formats that define one (a flag documented in milliseconds, another
 * tool's file), `error` for our config, where `startup: 10` meant 10 s far more often than 10 ms.
 */
export type BareNumber = 'ms' | 'error';

/**
 * Reads a duration (`250ms`, `5s`, `1m`, `1h`, `1m30s`) into ms. A bare number (or numeric string) is ms when
 * `bare` is `ms`; otherwise only 0 is, since it needs no unit.
 */
export function parseDuration(input: unknown, bare: BareNumber = 'ms'): UnitResult {
  let ms: number;
  const plain =
    typeof input === 'number'
      ? input
      : typeof input === 'string' && PLAIN_NUMBER.test(input)
        ? Number(input)
        : undefined;
  if (plain !== undefined) {
    if (bare === 'error' && plain > 0) {
      return {
        ok: false,
        message: `duration ${show(input)} has no unit: add one, e.g. ${unitless(plain)}s or ${unitless(plain)}ms`,
      };
    }
    ms = plain;
  } else if (typeof input === 'string' && DURATION.test(input)) {
    ms = 0;
    for (const [, amount, unit] of input.matchAll(DURATION_PART))
      ms += Number(amount) * DURATION_UNITS[unit!]!;
  } else {
    return { ok: false, message: `invalid duration ${show(input)}: ${DURATION_HELP[bare]}` };
  }
  if (!Number.isFinite(ms))
    return { ok: false, message: `invalid duration ${show(input)}: not a finite number` };
  if (ms < 0) return { ok: false, message: `invalid duration ${show(input)}: must not be negative` };
  if (ms > MAX_DURATION_MS) {
    return {
      ok: false,
      message: `duration ${show(input)} is too long: at most ${MAX_DURATION_MS} ms (about 24 days)`,
    };
  }
  return { ok: true, value: ms };
}

/** Reads a size (`64KiB`, `1MiB`, `1MB`, `512B`, or a number / numeric string of bytes) into whole bytes. */
export function parseSize(input: unknown): UnitResult {
  let bytes: number;
  if (typeof input === 'number') {
    bytes = input;
  } else if (typeof input === 'string' && PLAIN_NUMBER.test(input)) {
    bytes = Number(input);
  } else {
    const m = typeof input === 'string' ? SIZE.exec(input) : null;
    if (!m) return { ok: false, message: `invalid size ${show(input)}: ${SIZE_HELP}` };
    bytes = Number(m[1]) * SIZE_UNITS[m[2]!]!;
  }
  if (!Number.isFinite(bytes))
    return { ok: false, message: `invalid size ${show(input)}: not a finite number` };
  if (bytes < 0) return { ok: false, message: `invalid size ${show(input)}: must not be negative` };
  if (!Number.isSafeInteger(bytes)) {
    return { ok: false, message: `invalid size ${show(input)}: must be a whole number of bytes` };
  }
  return { ok: true, value: bytes };
}

function unitless(n: number): string {
  return Number.isFinite(n) ? String(n) : 'N';
}

function show(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'a mapping';
  return String(v);
}
