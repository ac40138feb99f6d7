// How one YAML value is read (durations, sizes, numbers, booleans, text, names, URIs) and a wrong one named.
import { z } from 'zod';
import { parseDuration, parseSize, type UnitResult } from './units.js';

/** An environment variable name, as `env` keys and `inheritEnv` entries must be. */
export const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

const NUMERIC = /^-?\d+(?:\.\d+)?$/;

function fromUnit(r: UnitResult, ctx: z.RefinementCtx, min = 0, minShown = String(min)): number {
  if (!r.ok) {
    ctx.addIssue({ code: 'custom', message: r.message });
    return z.NEVER;
  }
  if (r.value < min) {
    ctx.addIssue({ code: 'custom', message: `must be at least ${minShown}` });
    return z.NEVER;
  }
  return r.value;
}

/** A duration field (`250ms`, `5s`, `1m`, `1h`; a bare number other than 0 is refused) with its default, in ms. */
export function duration(defaultMs: number) {
  return z
    .unknown()
    .transform((v, ctx) => fromUnit(parseDuration(v, 'error'), ctx))
    .default(defaultMs);
}

/** A size field (`64KiB`, `1MiB`, or bytes), in bytes, at least `min` (named as `minShown` when too small). */
export function size(min = 1, minShown?: string) {
  return z.unknown().transform((v, ctx) => fromUnit(parseSize(v), ctx, min, minShown));
}

/** A number field; a numeric string (what `${VAR}` yields) counts as its number. */
export function numberLike<T extends z.ZodType>(schema: T) {
  return z.preprocess((v) => (typeof v === 'string' && NUMERIC.test(v.trim()) ? Number(v) : v), schema);
}

export const count = (min: number) =>
  numberLike(z.number().int('must be a whole number').min(min, `must be at least ${min}`));

export const booleanLike = z.preprocess(
  (v) => (v === 'true' ? true : v === 'false' ? false : v),
  z.boolean({ error: 'expected true or false' }),
);

/** A string; a number or boolean scalar (`PORT: 8080`, `args: [--port, 8080]`) is taken as its text. */
export const scalarString = z.unknown().transform((v, ctx) => {
  if (typeof v === 'string') return v;
  if ((typeof v === 'number' && Number.isFinite(v)) || typeof v === 'boolean') return String(v);
  ctx.addIssue({ code: 'custom', message: `expected a string, received ${kindOf(v)}` });
  return z.NEVER;
});

export const nonEmpty = z.string().min(1, 'must not be empty');

/**
 * What a process launch can carry: the kernel takes argv, env and paths as C strings, so a NUL byte would cut
 * the value short (Node's spawn refuses it outright). Found here, it is a located problem, not a crash at spawn.
 */
export const NUL_MESSAGE = 'contains a NUL byte (\\0), which no command line, environment or path can hold';
export const launchText = <T extends z.ZodType<string, unknown>>(schema: T) =>
  schema.refine((s) => !s.includes('\0'), NUL_MESSAGE);

export const envName = z
  .string()
  .regex(ENV_NAME, 'not an environment variable name ([A-Za-z_][A-Za-z0-9_]*)');

// Key names are checked on the raw mapping by the server validation (so a bad key and a bad value both show).
export const envMap = z.record(z.string(), launchText(scalarString));

export const scope = z.string().regex(/^\S+$/, 'a scope is a non-empty word without spaces');

export const fileUri = z.string().refine(isFileUri, 'expected a file:// URI (file:///abs/path)');

export const httpUrl = z.string().refine(isHttpUrl, 'expected an http:// or https:// URL');

export const enumOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: () => `expected one of: ${values.join(', ')}` });

function isHttpUrl(s: string): boolean {
  try {
    const u = new URL(s);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

function isFileUri(s: string): boolean {
  if (!s.startsWith('file://')) return false;
  try {
    return new URL(s).protocol === 'file:';
  } catch {
    return false;
  }
}

/** Messages for type mismatches that name both sides the way a config author thinks of them. */
export const configErrorMap: z.core.$ZodErrorMap = (issue) => {
  if (issue.code !== 'invalid_type') return undefined;
  if (issue.input === undefined) return 'missing (required)';
  return `expected ${EXPECTED[issue.expected] ?? issue.expected}, received ${kindOf(issue.input)}`;
};

const EXPECTED: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  boolean: 'true or false',
  object: 'a mapping',
  record: 'a mapping',
  array: 'a list',
};

/** `a list`, `a mapping`, `null`, `number`…: how a value's kind is named in messages. */
export function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'a mapping';
  return typeof v;
}
