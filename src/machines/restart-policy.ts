// The restart-policy math of the supervisor: pure functions over plain data, the clock and the random source
// passed in. The machines decide *when* to call these; this file only says *what* the answer is.

/** Backoff between restarts, durations in ms (the config loader's `restart.backoff`). */
export interface BackoffConfig {
  initialMs: number;
  multiplier: number;
  maxMs: number;
  jitter: number;
  resetAfterMs: number;
}

/** A sliding-window restart limit (a server's `restart.limit` or the supervisor's `limit`). */
export interface LimitConfig {
  maxRestarts: number;
  windowMs: number;
}

/** `always` | `on-failure` | `never` = OTP `permanent` | `transient` | `temporary`. */
export type RestartPolicyName = 'always' | 'on-failure' | 'never';

/** How the supervisor's children are restarted together. */
export type RestartStrategyName = 'one_for_one' | 'one_for_all' | 'rest_for_one';

/** What is known about one exit of a server process. */
export interface ExitFacts {
  code: number | null;
  signal: string | null;
  /** The supervisor stopped or reaped it on request (stop, shutdown, a sibling's restart). */
  requested: boolean;
  /** It exited before reaching `ready`: a failed start. */
  beforeReady: boolean;
  /** It was killed because it was wedged. */
  wedged: boolean;
}

/** The restart ledger of one server (or of the whole supervisor), as immutable data. */
export interface RestartHistory {
  /** When each restart still inside the window was decided (ms, oldest first). */
  readonly times: readonly number[];
  /** Restarts since the last reset: the `n` of {@link restartDelay}. */
  readonly n: number;
}

export type RestartPolicyErrorCode = 'unknown_server';

/** A programming error in the caller of the restart math (never a user's config problem). */
export class RestartPolicyError extends Error {
  override readonly name = 'RestartPolicyError';
  readonly code: RestartPolicyErrorCode;

  constructor(code: RestartPolicyErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}

/** The delay in ms before the n-th restart since the last reset (n < 1 counts as 1), jittered by `random` (a uniform draw the runtime made: the machines draw nothing), never over max. */
export function restartDelay(n: number, backoff: BackoffConfig, random: () => number): number {
  const max = nonNegative(backoff.maxMs);
  const initial = nonNegative(backoff.initialMs);
  // A backoff never shrinks: a multiplier under 1 (or not a number) behaves as 1.
  const multiplier = Number.isFinite(backoff.multiplier) && backoff.multiplier > 1 ? backoff.multiplier : 1;
  const jitter = nonNegative(backoff.jitter);
  const k = exponent(n, initial, multiplier, max);
  const base = Math.min(max, initial * multiplier ** k);
  const u = unit(random());
  const jittered = Math.min(max, base * (1 + u * jitter));
  // Rounding must not push a non-integer max over itself.
  return Math.min(Math.round(jittered), Math.floor(max));
}

/** True when an exit is a failure: a failed start, a wedge kill, a signal death or a non-zero code. */
export function isFailure(exit: ExitFacts): boolean {
  // What the supervisor asked for is never a failure, even if the server was also wedged or not yet ready.
  if (exit.requested) return false;
  if (exit.beforeReady || exit.wedged) return true;
  if (exit.signal !== null) return true;
  // A null code without a signal is an exit nobody can explain: treat it as the failure it most likely is.
  return exit.code !== 0;
}

/** Whether a server with this policy is restarted after this exit (before any limit is applied). */
export function shouldRestart(policy: RestartPolicyName, exit: ExitFacts): boolean {
  if (exit.requested) return false;
  switch (policy) {
    case 'always':
      return true;
    case 'on-failure':
      return isFailure(exit);
    case 'never':
      return false;
  }
}

/** A history with no restarts (a fresh server). */
export function emptyHistory(): RestartHistory {
  return Object.freeze({ times: Object.freeze([]), n: 0 });
}

/** The history after a manual `restart`/`startServer`: everything forgotten. */
export function clearHistory(): RestartHistory {
  return emptyHistory();
}

/**
 * Counts a restart decided at `now`: entries at least `windowMs` old drop out (the window is `(now - windowMs,
 * now]`), then `exceeded` is true when MORE than `maxRestarts` remain, the new one included.
 */
export function recordRestart(
  history: RestartHistory,
  now: number,
  limit: LimitConfig,
): { history: RestartHistory; exceeded: boolean } {
  const times = Object.freeze([...history.times.filter((t) => now - t < limit.windowMs), now]);
  const next: RestartHistory = Object.freeze({ times, n: history.n + 1 });
  return { history: next, exceeded: times.length > limit.maxRestarts };
}

/**
 * Which servers a failure of `failedId` takes down and brings back under `strategy`: `stop` in reverse file
 * order, `start` in file order. The failed server is in both (stopping it is the reap of what is left of it).
 */
export function restartSet(
  strategy: RestartStrategyName,
  ids: readonly string[],
  failedId: string,
): { stop: string[]; start: string[] } {
  const at = ids.indexOf(failedId);
  if (at < 0) {
    throw new RestartPolicyError('unknown_server', `unknown server ${JSON.stringify(failedId)}`);
  }
  let start: string[];
  switch (strategy) {
    case 'one_for_one':
      start = [failedId];
      break;
    case 'one_for_all':
      start = [...ids];
      break;
    case 'rest_for_one':
      start = ids.slice(at);
      break;
  }
  return { stop: [...start].reverse(), start };
}

function nonNegative(x: number): number {
  return Number.isFinite(x) && x > 0 ? x : 0;
}

function unit(u: number): number {
  if (!Number.isFinite(u) || u < 0) return 0;
  return Math.min(u, 1);
}

// The exponent n - 1, capped where the base has already reached max so that a huge n never makes Infinity
// (and Infinity · 0 never makes NaN).
function exponent(n: number, initial: number, multiplier: number, max: number): number {
  const k = Number.isNaN(n) || n < 1 ? 0 : Math.floor(n) - 1;
  if (multiplier === 1 || initial === 0) return 0;
  if (initial >= max) return 0;
  // One step past the computed cap absorbs the rounding of the logarithms.
  const cap = Math.ceil(Math.log(max / initial) / Math.log(multiplier)) + 1;
  return Math.min(k, Math.max(0, cap));
}
