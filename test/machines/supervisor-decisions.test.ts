import { describe, expect, it } from 'vitest';
import {
  type Books,
  type ChildBook,
  type ChildPhase,
  childOf,
  markStable,
  newChildBook,
  type Step,
} from '../../src/machines/books.js';
import type { ExitFacts, LimitConfig, RestartPolicyName } from '../../src/machines/restart-policy.js';
import { decideExit, escalate, restartDue } from '../../src/machines/supervisor-decisions.js';

const backoff = { initialMs: 100, multiplier: 2, maxMs: 1000, jitter: 0, resetAfterMs: 10_000 };
const childLimit = { maxRestarts: 3, windowMs: 60_000 };

/** Books for servers `ids` (file order), every one running unless a patch says otherwise. */
function booksOf(
  ids: string[],
  opts: {
    strategy?: Books['strategy'];
    limit?: LimitConfig;
    global?: number[];
    policy?: RestartPolicyName | undefined;
    patch?: Record<string, Partial<ChildBook>>;
  } = {},
): Books {
  const children = ids.map((id) => ({
    ...newChildBook(id, opts.policy ?? 'on-failure', backoff, childLimit),
    phase: 'running' as const,
    ...opts.patch?.[id],
  }));
  return {
    strategy: opts.strategy ?? 'one_for_one',
    limit: opts.limit ?? { maxRestarts: 100, windowMs: 60_000 },
    global: { times: opts.global ?? [], n: opts.global?.length ?? 0 },
    children,
    groups: {},
    escalated: false,
  };
}

const crash: ExitFacts = { code: 1, signal: null, requested: false, beforeReady: false, wedged: false };
const clean: ExitFacts = { ...crash, code: 0 };
const history = (times: number[]) => ({ times, n: times.length });

describe('decideExit: what one exit means', () => {
  it.each<{
    name: string;
    policy?: RestartPolicyName;
    facts?: Partial<ExitFacts>;
    child?: Partial<ChildBook>;
    escalated?: boolean;
    at?: number;
    draw?: number;
    steps: Step[];
    after?: Partial<ChildBook>;
  }>([
    {
      name: 'a crash under on-failure is restarted after the initial delay',
      steps: [
        { kind: 'restart-later', id: 'a' },
        { kind: 'schedule', id: 'a', delayMs: 100 },
      ],
      after: { phase: 'exited', restarts: 1, failedStarts: 0, history: history([5000]) },
    },
    {
      name: 'a clean exit under on-failure halts',
      facts: clean,
      steps: [{ kind: 'halt', id: 'a' }],
      after: { phase: 'exited', restarts: 0, history: history([]) },
    },
    {
      name: 'a clean exit under always is restarted',
      policy: 'always',
      facts: clean,
      steps: [
        { kind: 'restart-later', id: 'a' },
        { kind: 'schedule', id: 'a', delayMs: 100 },
      ],
    },
    { name: 'a crash under never halts', policy: 'never', steps: [{ kind: 'halt', id: 'a' }] },
    {
      name: 'an exit we asked for halts even under always',
      policy: 'always',
      facts: { requested: true },
      steps: [{ kind: 'halt', id: 'a' }],
    },
    {
      name: 'an exit before ready counts as a failed start even with code 0',
      facts: { code: 0, beforeReady: true },
      child: { failedStarts: 1 },
      steps: [
        { kind: 'restart-later', id: 'a' },
        { kind: 'schedule', id: 'a', delayMs: 100 },
      ],
      after: { failedStarts: 2 },
    },
    {
      name: 'an exit after ready forgets the failed starts',
      child: { failedStarts: 3 },
      steps: [
        { kind: 'restart-later', id: 'a' },
        { kind: 'schedule', id: 'a', delayMs: 100 },
      ],
      after: { failedStarts: 0 },
    },
    {
      name: 'one failed start more than maxRestarts gives up, whatever the window says',
      facts: { beforeReady: true },
      child: { failedStarts: 3 },
      steps: [{ kind: 'give-up', id: 'a', why: 'did not become ready in 4 starts in a row' }],
    },
    {
      name: 'the delay doubles with each restart since the last reset',
      child: { history: { times: [], n: 2 } },
      steps: [
        { kind: 'restart-later', id: 'a' },
        { kind: 'schedule', id: 'a', delayMs: 400 },
      ],
    },
    {
      name: "the event's draw is the jitter: 100 ms × (1 + 0.5 × 0.5)",
      child: { backoff: { ...backoff, jitter: 0.5 } },
      draw: 0.5,
      steps: [
        { kind: 'restart-later', id: 'a' },
        { kind: 'schedule', id: 'a', delayMs: 125 },
      ],
    },
    {
      name: 'a stop we asked for halts and clears the intent',
      child: { intent: 'stop' },
      steps: [{ kind: 'halt', id: 'a' }],
      after: { intent: null, phase: 'exited' },
    },
    {
      name: 'a restart by hand starts at once and counts nothing',
      child: { intent: 'manual-restart' },
      steps: [{ kind: 'start', id: 'a' }],
      after: { intent: null, restarts: 0, history: history([]) },
    },
    {
      name: 'after an escalation every exit halts',
      escalated: true,
      steps: [{ kind: 'halt', id: 'a' }],
    },
  ])('$name', ({ policy, facts, child, escalated, at = 5000, draw = 0, steps, after }) => {
    const books = { ...booksOf(['a'], { policy, patch: { a: child ?? {} } }), escalated: escalated ?? false };
    const out = decideExit(books, 'a', { facts: { ...crash, ...facts }, at, draw });
    expect(out.steps).toEqual(steps);
    if (after) expect(childOf(out.books, 'a')).toMatchObject(after);
  });

  it('an unknown id changes nothing', () => {
    const books = booksOf(['a']);
    expect(decideExit(books, 'zz', { facts: crash, at: 0, draw: 0 })).toEqual({ books, steps: [] });
  });

  it('does not touch the books it is given', () => {
    const books = booksOf(['a', 'b'], { strategy: 'one_for_all' });
    const copy = structuredClone(books);
    decideExit(books, 'a', { facts: crash, at: 1, draw: 0 });
    expect(books).toEqual(copy);
  });
});

describe('decideExit: the restart window of one server (3 restarts in 60 s)', () => {
  it.each<{ name: string; before: number[]; at: number; gives: 'restart' | 'give-up'; kept: number[] }>([
    {
      name: 'a fourth restart inside the window gives up',
      before: [0, 1, 2],
      at: 3,
      gives: 'give-up',
      kept: [0, 1, 2, 3],
    },
    { name: 'the third is still allowed', before: [0, 1], at: 2, gives: 'restart', kept: [0, 1, 2] },
    {
      name: 'an entry exactly windowMs old has left the window',
      before: [0, 1, 2],
      at: 60_000,
      gives: 'restart',
      kept: [1, 2, 60_000],
    },
    {
      name: 'an entry one ms younger than windowMs still counts',
      before: [1, 2, 3],
      at: 60_000,
      gives: 'give-up',
      kept: [1, 2, 3, 60_000],
    },
  ])('$name', ({ before, at, gives, kept }) => {
    const books = booksOf(['a'], { patch: { a: { history: history(before) } } });
    const out = decideExit(books, 'a', { facts: crash, at, draw: 0 });
    expect(out.steps[0]?.kind).toBe(gives === 'restart' ? 'restart-later' : 'give-up');
    expect(childOf(out.books, 'a')!.history.times).toEqual(kept);
    if (gives === 'give-up') {
      expect(out.steps).toEqual([{ kind: 'give-up', id: 'a', why: 'more than 3 restarts within 60000 ms' }]);
    }
  });
});

describe('decideExit: the supervisor limit escalates', () => {
  const limit = { maxRestarts: 2, windowMs: 10_000 };
  it.each<{ name: string; global: number[]; at: number; escalates: boolean }>([
    {
      name: 'a third restart in the supervisor window escalates',
      global: [0, 5000],
      at: 9999,
      escalates: true,
    },
    { name: 'the second does not', global: [0], at: 9999, escalates: false },
    { name: 'an old one has left the window', global: [0, 5000], at: 10_000, escalates: false },
  ])('$name', ({ global, at, escalates }) => {
    const books = booksOf(['a', 'b', 'c'], { limit, global });
    const out = decideExit(books, 'b', { facts: crash, at, draw: 0 });
    expect(out.books.escalated).toBe(escalates);
    if (!escalates) {
      expect(out.steps.map((s) => s.kind)).toEqual(['restart-later', 'schedule']);
      return;
    }
    const why = 'supervisor limit: more than 2 restarts within 10000 ms';
    // Everything stops in reverse file order; the server whose exit tipped it over is the one that failed.
    expect(out.steps).toEqual([
      { kind: 'escalate', why },
      { kind: 'cancel', id: 'c' },
      { kind: 'stop', id: 'c', reason: 'escalated' },
      { kind: 'cancel', id: 'b' },
      { kind: 'give-up', id: 'b', why },
      { kind: 'cancel', id: 'a' },
      { kind: 'stop', id: 'a', reason: 'escalated' },
    ]);
    expect(['a', 'b', 'c'].map((id) => childOf(out.books, id)!.intent)).toEqual(['stop', null, 'stop']);
  });

  it('escalate() clears pending groups', () => {
    const books = { ...booksOf(['a', 'b']), groups: { a: { members: ['a', 'b'], due: false } } };
    expect(escalate(books, null, 'why').books.groups).toEqual({});
  });
});

describe('decideExit: strategies take siblings down by their phase', () => {
  it.each<{
    name: string;
    strategy: Books['strategy'];
    phases?: Record<string, ChildPhase>;
    policies?: Record<string, RestartPolicyName>;
    stops: string[];
    intents: Record<string, ChildBook['intent']>;
    group?: string[];
  }>([
    {
      name: 'one_for_one leaves siblings alone',
      strategy: 'one_for_one',
      stops: [],
      intents: { a: null, c: null },
    },
    {
      name: 'one_for_all stops every running sibling, in reverse order',
      strategy: 'one_for_all',
      stops: ['c', 'a'],
      intents: { a: 'group-restart', c: 'group-restart' },
      group: ['a', 'b', 'c'],
    },
    {
      name: 'rest_for_one stops only those after the failed one',
      strategy: 'rest_for_one',
      stops: ['c'],
      intents: { a: null, c: 'group-restart' },
      group: ['b', 'c'],
    },
    {
      name: 'a sibling that already exited is not stopped again, nor brought back by the group',
      strategy: 'one_for_all',
      phases: { c: 'exited' },
      stops: ['a'],
      intents: { a: 'group-restart', c: null },
      group: ['a', 'b'],
    },
    {
      name: 'a sibling stopped by hand stays stopped',
      strategy: 'one_for_all',
      phases: { a: 'stopped' },
      stops: ['c'],
      intents: { a: null, c: 'group-restart' },
      group: ['b', 'c'],
    },
    {
      name: 'a temporary (never) sibling is stopped for good',
      strategy: 'one_for_all',
      policies: { c: 'never' },
      stops: ['c', 'a'],
      intents: { a: 'group-restart', c: 'stop' },
      group: ['a', 'b'],
    },
  ])('$name', ({ strategy, phases = {}, policies = {}, stops, intents, group }) => {
    const patch: Record<string, Partial<ChildBook>> = {};
    for (const id of ['a', 'b', 'c']) {
      patch[id] = {
        ...(phases[id] ? { phase: phases[id] } : {}),
        ...(policies[id] ? { policy: policies[id] } : {}),
      };
    }
    const out = decideExit(booksOf(['a', 'b', 'c'], { strategy, patch }), 'b', {
      facts: crash,
      at: 0,
      draw: 0,
    });
    expect(out.steps.filter((s) => s.kind === 'stop').map((s) => (s as { id: string }).id)).toEqual(stops);
    for (const [id, intent] of Object.entries(intents)) expect(childOf(out.books, id)!.intent).toBe(intent);
    expect(out.books.groups.b?.members).toEqual(group);
  });
});

describe('restartDue and group release read only the phases in the books', () => {
  const grouped = (phases: Record<string, ChildPhase>, intents: Record<string, ChildBook['intent']> = {}) => {
    const patch: Record<string, Partial<ChildBook>> = {};
    for (const [id, phase] of Object.entries(phases)) patch[id] = { phase, intent: intents[id] ?? null };
    return {
      ...booksOf(['a', 'b', 'c'], { patch }),
      groups: { b: { members: ['a', 'b', 'c'], due: false } },
    };
  };

  it.each<{ name: string; phases: Record<string, ChildPhase>; starts: string[]; pending: boolean }>([
    {
      name: 'every member has exited: all start, in file order',
      phases: { a: 'backoff', b: 'backoff', c: 'exited' },
      starts: ['a', 'b', 'c'],
      pending: false,
    },
    {
      name: 'a member still running holds the group back',
      phases: { a: 'backoff', b: 'backoff', c: 'running' },
      starts: [],
      pending: true,
    },
    {
      name: 'a member stopped since is not started',
      phases: { a: 'stopped', b: 'backoff', c: 'backoff' },
      starts: ['b', 'c'],
      pending: false,
    },
  ])('$name', ({ phases, starts, pending }) => {
    const books = grouped(phases, { a: 'group-restart', c: 'group-restart' });
    const out = restartDue(books, 'b');
    expect(out.steps).toEqual(starts.map((id) => ({ kind: 'start', id })));
    expect(out.books.groups.b !== undefined).toBe(pending);
  });

  it('the last member to exit releases a due group from its own exit', () => {
    const books = grouped(
      { a: 'backoff', b: 'backoff', c: 'running' },
      { a: 'group-restart', c: 'group-restart' },
    );
    const due = restartDue(books, 'b').books;
    const out = decideExit(due, 'c', { facts: crash, at: 0, draw: 0 });
    expect(out.steps).toEqual([
      { kind: 'restart-later', id: 'c' },
      { kind: 'start', id: 'a' },
      { kind: 'start', id: 'b' },
      { kind: 'start', id: 'c' },
    ]);
  });

  it.each<{ phase: ChildPhase; starts: boolean }>([
    { phase: 'backoff', starts: true },
    { phase: 'exited', starts: true },
    { phase: 'stopped', starts: false },
    { phase: 'running', starts: false },
    { phase: 'failed', starts: false },
  ])('a lone restart timer starts a child in $phase: $starts', ({ phase, starts }) => {
    const out = restartDue(booksOf(['a'], { patch: { a: { phase } } }), 'a');
    expect(out.steps).toEqual(starts ? [{ kind: 'start', id: 'a' }] : []);
  });

  it('after an escalation a timer that still fires starts nothing', () => {
    const books = { ...booksOf(['a'], { patch: { a: { phase: 'backoff' } } }), escalated: true };
    expect(restartDue(books, 'a').steps).toEqual([]);
  });
});

describe('markStable', () => {
  it.each<{ phase: ChildPhase; clears: boolean }>([
    { phase: 'running', clears: true },
    { phase: 'exited', clears: false },
    { phase: 'backoff', clears: false },
  ])('clears the history of a child in $phase: $clears', ({ phase, clears }) => {
    const books = booksOf(['a'], { patch: { a: { phase, history: history([1, 2]) } } });
    expect(childOf(markStable(books, 'a'), 'a')!.history).toEqual(clears ? history([]) : history([1, 2]));
  });
});
