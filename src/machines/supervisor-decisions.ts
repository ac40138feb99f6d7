import {
  type BackoffConfig,
  type ExitFacts,
  emptyHistory,
  type LimitConfig,
  type RestartHistory,
  type RestartPolicyName,
  type RestartStrategyName,
  recordRestart,
  resetIfStable,
  restartDelay,
  restartSet,
  shouldRestart,
} from './restart-policy.js';

/** What the supervisor intends for a child whose exit it is waiting for; `null` = an exit would be a surprise. */
export type ChildIntent = 'stop' | 'group-restart' | 'manual-restart' | null;

export interface ChildBook {
  policy: RestartPolicyName;
  backoff: BackoffConfig;
  limit: LimitConfig;
  history: RestartHistory;
  readySince: number | null;
  intent: ChildIntent;
  /** Its restart timer fired while it was still stopping (a slow sibling): start it as soon as it exits. */
  due: boolean;
  /** Total restarts over the supervisor's life, for status(). */
  restarts: number;
}

export interface Books {
  strategy: RestartStrategyName;
  order: readonly string[];
  limit: LimitConfig;
  global: RestartHistory;
  children: Record<string, ChildBook>;
  escalated: boolean;
}

/** One instruction the supervisor machine carries out for a child. */
export type Step =
  | { kind: 'halt'; id: string }
  | { kind: 'give-up'; id: string; why: string }
  | { kind: 'start'; id: string }
  | { kind: 'restart-later'; id: string }
  | { kind: 'stop'; id: string; reason: string }
  | { kind: 'schedule'; id: string; delayMs: number }
  | { kind: 'cancel'; id: string }
  | { kind: 'escalate'; why: string };

/** A fresh book for a child. */
export function newChildBook(
  policy: RestartPolicyName,
  backoff: BackoffConfig,
  limit: LimitConfig,
): ChildBook {
  return {
    policy,
    backoff,
    limit,
    history: emptyHistory(),
    readySince: null,
    intent: null,
    due: false,
    restarts: 0,
  };
}

/**
 * Decides what a child's exit means under its policy, its limit, the supervisor's limit and the strategy.
 * Pure: returns the new books and the steps to carry out, in order.
 */
export function decideExit(
  books: Books,
  id: string,
  facts: ExitFacts,
  now: number,
  running: (id: string) => boolean,
  random: () => number,
): { books: Books; steps: Step[] } {
  const child = books.children[id];
  if (!child) return { books, steps: [] };
  const children = { ...books.children };
  const set = (cid: string, patch: Partial<ChildBook>) => {
    children[cid] = { ...children[cid]!, ...patch };
  };
  const done = (steps: Step[], extra: Partial<Books> = {}) => ({
    books: { ...books, ...extra, children },
    steps,
  });

  if (child.intent === 'stop' || books.escalated) {
    set(id, { intent: null, readySince: null, due: false });
    return done([{ kind: 'halt', id }]);
  }
  if (child.intent === 'manual-restart') {
    set(id, { intent: null, readySince: null, due: false });
    return done([{ kind: 'start', id }]);
  }
  if (child.intent === 'group-restart') {
    set(id, { intent: null, readySince: null, due: false });
    return done([child.due ? { kind: 'start', id } : { kind: 'restart-later', id }]);
  }

  const history = resetIfStable(child.history, child.readySince, now, child.backoff.resetAfterMs);
  set(id, { readySince: null, history });
  if (!shouldRestart(child.policy, facts)) return done([{ kind: 'halt', id }]);

  const local = recordRestart(history, now, child.limit);
  set(id, { history: local.history });
  if (local.exceeded) {
    const why = `more than ${child.limit.maxRestarts} restarts within ${child.limit.windowMs} ms`;
    return done([{ kind: 'give-up', id, why }]);
  }
  const global = recordRestart(books.global, now, books.limit);
  if (global.exceeded) {
    const why = `supervisor limit: more than ${books.limit.maxRestarts} restarts within ${books.limit.windowMs} ms`;
    return escalate({ ...books, children, global: global.history }, id, why);
  }
  set(id, { restarts: child.restarts + 1 });
  const delayMs = restartDelay(local.history.n, child.backoff, random);
  const { stop, start } = restartSet(books.strategy, books.order, id);
  const steps: Step[] = [];
  for (const sid of stop) {
    if (sid === id || !running(sid)) continue;
    set(sid, { intent: 'group-restart', due: false });
    steps.push({ kind: 'stop', id: sid, reason: 'sibling_restart' });
  }
  steps.push({ kind: 'restart-later', id });
  for (const sid of start) {
    const sib = children[sid]!;
    // A temporary (`never`) sibling is not brought back by someone else's failure, as in OTP.
    if (sid !== id && (sib.policy === 'never' || sib.intent !== 'group-restart')) continue;
    steps.push({ kind: 'schedule', id: sid, delayMs });
  }
  return done(steps, { global: global.history });
}

/** Stops everything in reverse order and marks the supervisor as escalated. */
export function escalate(
  books: Books,
  failedId: string | null,
  why: string,
): { books: Books; steps: Step[] } {
  const children = { ...books.children };
  const steps: Step[] = [{ kind: 'escalate', why }];
  for (const cid of [...books.order].reverse()) {
    children[cid] = { ...children[cid]!, intent: cid === failedId ? null : 'stop', due: false };
    steps.push({ kind: 'cancel', id: cid });
    steps.push(
      cid === failedId ? { kind: 'give-up', id: cid, why } : { kind: 'stop', id: cid, reason: 'escalated' },
    );
  }
  return { books: { ...books, escalated: true, children }, steps };
}
