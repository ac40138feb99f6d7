import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type BackoffConfig,
  clearHistory,
  type ExitFacts,
  emptyHistory,
  isFailure,
  type LimitConfig,
  type RestartHistory,
  RestartPolicyError,
  type RestartPolicyName,
  recordRestart,
  restartDelay,
  restartSet,
  shouldRestart,
} from '../../src/machines/restart-policy.js';

const zero = () => 0;
const backoff = (over: Partial<BackoffConfig> = {}): BackoffConfig => ({
  initialMs: 1000,
  multiplier: 2,
  maxMs: 30_000,
  jitter: 0,
  resetAfterMs: 60_000,
  ...over,
});
const delays = (b: BackoffConfig, count: number, random = zero) =>
  Array.from({ length: count }, (_, i) => restartDelay(i + 1, b, random));

describe('restartDelay', () => {
  it('doubles from 1s and caps at 30s', () => {
    expect(delays(backoff(), 8)).toEqual([1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000]);
  });

  it('follows other configs: 250ms ×3 up to 10s, 10s ×2 up to 5min', () => {
    expect(delays(backoff({ initialMs: 250, multiplier: 3, maxMs: 10_000 }), 6)).toEqual([
      250, 750, 2250, 6750, 10_000, 10_000,
    ]);
    expect(delays(backoff({ initialMs: 10_000, multiplier: 2, maxMs: 300_000 }), 7)).toEqual([
      10_000, 20_000, 40_000, 80_000, 160_000, 300_000, 300_000,
    ]);
  });

  it('keeps a constant delay with multiplier 1', () => {
    expect(delays(backoff({ initialMs: 500, multiplier: 1 }), 5)).toEqual([500, 500, 500, 500, 500]);
  });

  it('treats a multiplier under 1 as 1 (a backoff never shrinks)', () => {
    expect(delays(backoff({ initialMs: 800, multiplier: 0.5 }), 3)).toEqual([800, 800, 800]);
  });

  it('caps an initial delay above max', () => {
    expect(restartDelay(1, backoff({ initialMs: 60_000 }), zero)).toBe(30_000);
  });

  it('treats n < 1 (and NaN) as 1', () => {
    for (const n of [0, -1, -1e9, Number.NaN, Number.NEGATIVE_INFINITY]) {
      expect(restartDelay(n, backoff(), zero)).toBe(1000);
    }
  });

  it('stays finite and at max for huge n', () => {
    for (const n of [1024, 1e6, Number.MAX_SAFE_INTEGER, Number.MAX_VALUE, Number.POSITIVE_INFINITY]) {
      expect(restartDelay(n, backoff(), zero)).toBe(30_000);
      expect(restartDelay(n, backoff({ multiplier: 1e300 }), () => 0.5)).toBe(30_000);
    }
  });

  it('gives 0 with initial 0, even for huge n', () => {
    expect(restartDelay(Number.MAX_VALUE, backoff({ initialMs: 0 }), zero)).toBe(0);
  });

  it('applies jitter as (1 + U·jitter) on top of the base', () => {
    const b = backoff({ jitter: 0.2 });
    expect(restartDelay(1, b, () => 0.5)).toBe(1100);
    expect(restartDelay(3, b, () => 0.25)).toBe(4200);
    expect(restartDelay(2, b, zero)).toBe(2000);
    expect(restartDelay(1, b, () => 0.999)).toBe(1200); // 1199.8 rounded
  });

  it('clamps the jittered delay to max', () => {
    const b = backoff({ jitter: 0.2 });
    expect(restartDelay(6, b, () => 0.999)).toBe(30_000);
    expect(restartDelay(5, b, () => 0.999)).toBe(19_197); // 16000 · 1.1998, under the cap
    expect(restartDelay(5, backoff({ jitter: 1 }), () => 0.999)).toBe(30_000); // 31984 clamped
  });

  it('is exact with jitter 0 whatever random returns', () => {
    expect(restartDelay(4, backoff(), () => 0.999)).toBe(8000);
  });

  it('returns integer milliseconds', () => {
    expect(restartDelay(1, backoff({ initialMs: 333, jitter: 0.1 }), () => 0.37)).toBe(345); // 345.321
  });

  it('stays within the jitter band for any uniform draw (the runtime draws; the machines never do)', () => {
    for (let i = 0; i < 50; i++) {
      const d = restartDelay(2, backoff({ jitter: 0.5 }), Math.random);
      expect(d).toBeGreaterThanOrEqual(2000);
      expect(d).toBeLessThanOrEqual(3000);
    }
  });

  it('property: always an integer within [0, max]', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.integer({ min: -10, max: 5000 }), fc.double()),
        fc.double({ min: 0, max: 1e7, noNaN: true }),
        fc.double({ min: 0, max: 1e3, noNaN: true }),
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.double({ min: 0, max: 10, noNaN: true }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (n, initialMs, multiplier, maxMs, jitter, u) => {
          const d = restartDelay(n, backoff({ initialMs, multiplier, maxMs, jitter }), () => u);
          expect(Number.isInteger(d)).toBe(true);
          expect(d).toBeGreaterThanOrEqual(0);
          expect(d).toBeLessThanOrEqual(maxMs);
        },
      ),
    );
  });

  it('property: non-decreasing in n when jitter is 0', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2000 }),
        fc.integer({ min: 0, max: 100 }),
        fc.double({ min: 0, max: 1e6, noNaN: true }),
        fc.double({ min: 0, max: 100, noNaN: true }),
        fc.integer({ min: 0, max: 10_000_000 }),
        (n, step, initialMs, multiplier, maxMs) => {
          const b = backoff({ initialMs, multiplier, maxMs });
          expect(restartDelay(n + step, b, zero)).toBeGreaterThanOrEqual(restartDelay(n, b, zero));
        },
      ),
    );
  });
});

const exits: Record<string, ExitFacts> = {
  'code 0': { code: 0, signal: null, requested: false, beforeReady: false, wedged: false },
  'code 1': { code: 1, signal: null, requested: false, beforeReady: false, wedged: false },
  signal: { code: null, signal: 'SIGSEGV', requested: false, beforeReady: false, wedged: false },
  requested: { code: null, signal: 'SIGTERM', requested: true, beforeReady: false, wedged: false },
  'requested, code 0': { code: 0, signal: null, requested: true, beforeReady: false, wedged: false },
  'before ready, code 0': { code: 0, signal: null, requested: false, beforeReady: true, wedged: false },
  'before ready, code 1': { code: 1, signal: null, requested: false, beforeReady: true, wedged: false },
  wedged: { code: null, signal: 'SIGKILL', requested: false, beforeReady: false, wedged: true },
  'stopped while wedged': {
    code: null,
    signal: 'SIGKILL',
    requested: true,
    beforeReady: false,
    wedged: true,
  },
  'stopped while starting': { code: 0, signal: null, requested: true, beforeReady: true, wedged: false },
};

// exit kind → [isFailure, always, on-failure, never]
const table: [string, boolean, boolean, boolean, boolean][] = [
  ['code 0', false, true, false, false],
  ['code 1', true, true, true, false],
  ['signal', true, true, true, false],
  ['requested', false, false, false, false],
  ['requested, code 0', false, false, false, false],
  ['before ready, code 0', true, true, true, false],
  ['before ready, code 1', true, true, true, false],
  ['wedged', true, true, true, false],
  ['stopped while wedged', false, false, false, false],
  ['stopped while starting', false, false, false, false],
];

describe('isFailure and shouldRestart', () => {
  it.each(table)(
    '%s → failure %s, always %s, on-failure %s, never %s',
    (kind, failure, always, onFailure, never) => {
      const exit = exits[kind]!;
      expect(isFailure(exit)).toBe(failure);
      const got: Record<RestartPolicyName, boolean> = {
        always: shouldRestart('always', exit),
        'on-failure': shouldRestart('on-failure', exit),
        never: shouldRestart('never', exit),
      };
      expect(got).toEqual({ always, 'on-failure': onFailure, never });
    },
  );

  it('counts an unexplained exit (no code, no signal) as a failure', () => {
    const exit: ExitFacts = { code: null, signal: null, requested: false, beforeReady: false, wedged: false };
    expect(isFailure(exit)).toBe(true);
    expect(shouldRestart('on-failure', exit)).toBe(true);
  });
});

const limit5: LimitConfig = { maxRestarts: 5, windowMs: 60_000 };

function recordAt(times: number[], limit: LimitConfig, start: RestartHistory = emptyHistory()) {
  let history = start;
  const exceeded: boolean[] = [];
  for (const t of times) {
    const r = recordRestart(history, t, limit);
    history = r.history;
    exceeded.push(r.exceeded);
  }
  return { history, exceeded };
}

describe('recordRestart', () => {
  it('allows exactly maxRestarts within the window and refuses one more', () => {
    const five = recordAt([0, 1000, 2000, 3000, 4000], limit5);
    expect(five.exceeded).toEqual([false, false, false, false, false]);
    expect(five.history.n).toBe(5);
    const sixth = recordRestart(five.history, 59_999, limit5);
    expect(sixth.exceeded).toBe(true);
    expect(sixth.history.times).toEqual([0, 1000, 2000, 3000, 4000, 59_999]);
    expect(sixth.history.n).toBe(6);
  });

  it('expires an entry exactly windowMs old (the window is (now - windowMs, now])', () => {
    const five = recordAt([0, 1000, 2000, 3000, 4000], limit5).history;
    const atEdge = recordRestart(five, 60_000, limit5);
    expect(atEdge.exceeded).toBe(false);
    expect(atEdge.history.times).toEqual([1000, 2000, 3000, 4000, 60_000]);
    const msBefore = recordRestart(five, 59_999, limit5);
    expect(msBefore.history.times[0]).toBe(0);
  });

  it('keeps n counting across expiries (only a reset brings it back)', () => {
    const { history, exceeded } = recordAt([0, 100_000, 200_000], limit5);
    expect(history.times).toEqual([200_000]);
    expect(history.n).toBe(3);
    expect(exceeded).toEqual([false, false, false]);
  });

  it('with maxRestarts 0 refuses the first restart', () => {
    expect(recordRestart(emptyHistory(), 5, { maxRestarts: 0, windowMs: 1000 }).exceeded).toBe(true);
  });

  it('does not mutate the history it is given', () => {
    const before = recordAt([0, 10], limit5).history;
    const snapshot = structuredClone(before);
    recordRestart(before, 20, limit5);
    expect(before).toEqual(snapshot);
    expect(Object.isFrozen(before.times)).toBe(true);
  });
});

describe('clearHistory', () => {
  it('clearHistory forgets everything', () => {
    expect(clearHistory()).toEqual({ times: [], n: 0 });
    const after = recordRestart(clearHistory(), 3000, limit5);
    expect(after.history).toEqual({ times: [3000], n: 1 });
  });
});

describe('restartSet', () => {
  const ids = ['a', 'b', 'c', 'd'];

  it('one_for_one takes only the failed one, wherever it is', () => {
    for (const id of ids) {
      expect(restartSet('one_for_one', ids, id)).toEqual({ stop: [id], start: [id] });
    }
  });

  it('one_for_all takes everyone: stop in reverse, start in order', () => {
    for (const id of ['a', 'c', 'd']) {
      expect(restartSet('one_for_all', ids, id)).toEqual({
        stop: ['d', 'c', 'b', 'a'],
        start: ['a', 'b', 'c', 'd'],
      });
    }
  });

  it('rest_for_one takes the failed one and those after it', () => {
    expect(restartSet('rest_for_one', ids, 'a')).toEqual({
      stop: ['d', 'c', 'b', 'a'],
      start: ['a', 'b', 'c', 'd'],
    });
    expect(restartSet('rest_for_one', ids, 'b')).toEqual({ stop: ['d', 'c', 'b'], start: ['b', 'c', 'd'] });
    expect(restartSet('rest_for_one', ids, 'd')).toEqual({ stop: ['d'], start: ['d'] });
  });

  it('does not alias or reorder the ids it is given', () => {
    const given = ['x', 'y'];
    const r = restartSet('one_for_all', given, 'x');
    r.start.push('z');
    expect(given).toEqual(['x', 'y']);
  });

  it('throws unknown_server for an id not in the list', () => {
    expect(() => restartSet('one_for_one', ids, 'zz')).toThrow(RestartPolicyError);
    let caught: unknown;
    try {
      restartSet('rest_for_one', ids, 'zz');
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(RestartPolicyError);
    expect((caught as RestartPolicyError).code).toBe('unknown_server');
  });
});
