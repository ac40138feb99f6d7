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
  /** Total restarts over the supervisor's life, for status(). */
  restarts: number;
  /**
   * Failed starts in a row since the server was last ready or started by hand. Unlike the window it never
   * forgets, so a server whose every attempt outlasts the window still runs out of restarts.
   */
  failedStarts: number;
}

export interface Books {
  strategy: RestartStrategyName;
  order: readonly string[];
  limit: LimitConfig;
  global: RestartHistory;
  children: Record<string, ChildBook>;
  /**
   * Group restarts (one_for_all, rest_for_one) waiting to happen, keyed by the server whose failure started them:
   * members start together, in file order, once the delay passed and every member has exited.
   */
  groups: Record<string, { members: string[]; due: boolean }>;
  escalated: boolean;
}

/** One instruction the supervisor machine carries out for a child. */
export type Step =
  | { kind: 'halt'; id: string }
  | { kind: 'give-up'; id: string; why: string }
  | { kind: 'start'; id: string }
  /** Start it if it still waits in backoff (a stop since then wins). */
  | { kind: 'start-if-waiting'; id: string }
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
    restarts: 0,
    failedStarts: 0,
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
    set(id, { intent: null, readySince: null });
    return done([{ kind: 'halt', id }]);
  }
  if (child.intent === 'manual-restart') {
    set(id, { intent: null, readySince: null });
    return done([{ kind: 'start', id }]);
  }
  if (child.intent === 'group-restart') {
    set(id, { readySince: null });
    const steps: Step[] = [{ kind: 'restart-later', id }];
    const released = releaseGroups({ ...books, children }, (cid) => cid !== id && running(cid));
    return { books: released.books, steps: [...steps, ...released.steps] };
  }

  const history = resetIfStable(child.history, child.readySince, now, child.backoff.resetAfterMs);
  set(id, { readySince: null, history });
  if (!shouldRestart(child.policy, facts)) return done([{ kind: 'halt', id }]);

  const local = recordRestart(history, now, child.limit);
  const failedStarts = facts.beforeReady ? child.failedStarts + 1 : 0;
  set(id, { history: local.history, failedStarts });
  if (local.exceeded) {
    const why = `more than ${child.limit.maxRestarts} restarts within ${child.limit.windowMs} ms`;
    return done([{ kind: 'give-up', id, why }]);
  }
  if (failedStarts > child.limit.maxRestarts) {
    return done([{ kind: 'give-up', id, why: `did not become ready in ${failedStarts} starts in a row` }]);
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
  const members: string[] = [];
  for (const sid of stop) {
    if (sid === id || !running(sid)) continue;
    // A temporary (`never`) sibling is stopped with the rest but not brought back by someone else's failure, as in OTP.
    set(sid, { intent: children[sid]!.policy === 'never' ? 'stop' : 'group-restart' });
    steps.push({ kind: 'stop', id: sid, reason: 'sibling_restart' });
  }
  for (const sid of start) if (sid === id || children[sid]!.intent === 'group-restart') members.push(sid);
  steps.push({ kind: 'restart-later', id });
  steps.push({ kind: 'schedule', id, delayMs });
  const groups = members.length > 1 ? { ...books.groups, [id]: { members, due: false } } : books.groups;
  return done(steps, { global: global.history, groups });
}

/** The restart timer of `id` fired: start it, or mark its group due and start the group if everyone has exited. */
export function restartDue(
  books: Books,
  id: string,
  running: (id: string) => boolean,
): { books: Books; steps: Step[] } {
  const group = books.groups[id];
  if (!group) return { books, steps: [{ kind: 'start-if-waiting', id }] };
  return releaseGroups({ ...books, groups: { ...books.groups, [id]: { ...group, due: true } } }, running);
}

/** Starts every due group whose members have all exited, members in file order. */
function releaseGroups(books: Books, running: (id: string) => boolean): { books: Books; steps: Step[] } {
  const groups = { ...books.groups };
  const children = { ...books.children };
  const steps: Step[] = [];
  for (const [key, group] of Object.entries(books.groups)) {
    if (!group.due || group.members.some(running)) continue;
    delete groups[key];
    for (const member of group.members) {
      if (member !== key && children[member]?.intent !== 'group-restart') continue;
      children[member] = { ...children[member]!, intent: null };
      steps.push({ kind: 'start-if-waiting', id: member });
    }
  }
  return { books: { ...books, groups, children }, steps };
}

/** Forgets a server in every pending group (it was stopped or restarted by hand). */
export function leaveGroups(books: Books, id: string): Books {
  const groups: Books['groups'] = {};
  for (const [key, g] of Object.entries(books.groups)) {
    if (key === id) continue;
    groups[key] = { ...g, members: g.members.filter((m) => m !== id) };
  }
  return { ...books, groups };
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
    children[cid] = { ...children[cid]!, intent: cid === failedId ? null : 'stop' };
    steps.push({ kind: 'cancel', id: cid });
    steps.push(
      cid === failedId ? { kind: 'give-up', id: cid, why } : { kind: 'stop', id: cid, reason: 'escalated' },
    );
  }
  return { books: { ...books, escalated: true, children, groups: {} }, steps };
}
