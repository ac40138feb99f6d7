import { type Books, childIds, childOf, editChildren, isWaiting, type Step } from './books.js';
import { type ExitFacts, recordRestart, restartDelay, restartSet, shouldRestart } from './restart-policy.js';

/** An exit as the supervisor decides it: the facts, when it was seen and a uniform draw in [0, 1) for the jitter. */
export interface ExitReport {
  facts: ExitFacts;
  at: number;
  draw: number;
}

/**
 * Decides what a child's exit means under its policy, its limit, the supervisor's limit and the strategy.
 * Pure: reads only the books and the report, returns the new books and the steps to carry out, in order.
 */
export function decideExit(books: Books, id: string, report: ExitReport): { books: Books; steps: Step[] } {
  const child = childOf(books, id);
  if (!child) return { books, steps: [] };
  const { facts, at, draw } = report;
  const { children, get, set } = editChildren(books);
  const done = (steps: Step[], extra: Partial<Books> = {}) => ({
    books: { ...books, ...extra, children },
    steps,
  });
  set(id, { phase: 'exited' });

  if (child.intent === 'stop' || books.escalated) {
    set(id, { intent: null });
    return done([{ kind: 'halt', id }]);
  }
  if (child.intent === 'manual-restart') {
    set(id, { intent: null });
    return done([{ kind: 'start', id }]);
  }
  if (child.intent === 'group-restart') {
    const released = releaseGroups({ ...books, children });
    return { books: released.books, steps: [{ kind: 'restart-later', id }, ...released.steps] };
  }

  if (!shouldRestart(child.policy, facts)) return done([{ kind: 'halt', id }]);

  const local = recordRestart(child.history, at, child.limit);
  const failedStarts = facts.beforeReady ? child.failedStarts + 1 : 0;
  set(id, { history: local.history, failedStarts });
  if (local.exceeded) {
    const why = `more than ${child.limit.maxRestarts} restarts within ${child.limit.windowMs} ms`;
    return done([{ kind: 'give-up', id, why }]);
  }
  if (failedStarts > child.limit.maxRestarts) {
    return done([{ kind: 'give-up', id, why: `did not become ready in ${failedStarts} starts in a row` }]);
  }
  const global = recordRestart(books.global, at, books.limit);
  if (global.exceeded) {
    const why = `supervisor limit: more than ${books.limit.maxRestarts} restarts within ${books.limit.windowMs} ms`;
    return escalate({ ...books, children, global: global.history }, id, why);
  }
  set(id, { restarts: child.restarts + 1 });
  const delayMs = restartDelay(local.history.n, child.backoff, () => draw);
  const { stop, start } = restartSet(books.strategy, childIds(books), id);
  const steps: Step[] = [];
  const members: string[] = [];
  for (const sid of stop) {
    if (sid === id || get(sid)?.phase !== 'running') continue;
    // A temporary (`never`) sibling is stopped with the rest but not brought back by someone else's failure, as in OTP.
    set(sid, { intent: get(sid)?.policy === 'never' ? 'stop' : 'group-restart' });
    steps.push({ kind: 'stop', id: sid, reason: 'sibling_restart' });
  }
  for (const sid of start) if (sid === id || get(sid)?.intent === 'group-restart') members.push(sid);
  steps.push({ kind: 'restart-later', id });
  steps.push({ kind: 'schedule', id, delayMs });
  const groups = members.length > 1 ? { ...books.groups, [id]: { members, due: false } } : books.groups;
  return done(steps, { global: global.history, groups });
}

/** The restart timer of `id` fired: start it, or mark its group due and start the group if everyone has exited. */
export function restartDue(books: Books, id: string): { books: Books; steps: Step[] } {
  if (books.escalated) return { books, steps: [] };
  const group = books.groups[id];
  if (!group) return { books, steps: isWaiting(books, id) ? [{ kind: 'start', id }] : [] };
  return releaseGroups({ ...books, groups: { ...books.groups, [id]: { ...group, due: true } } });
}

/** Starts every due group whose members have all exited, members in file order (a stop since then wins). */
function releaseGroups(books: Books): { books: Books; steps: Step[] } {
  const groups = { ...books.groups };
  const { children, get, set } = editChildren(books);
  const steps: Step[] = [];
  const waiting = (m: string) => get(m)?.phase === 'backoff' || get(m)?.phase === 'exited';
  for (const [key, group] of Object.entries(books.groups)) {
    if (!group.due || group.members.some((m) => get(m)?.phase === 'running')) continue;
    delete groups[key];
    for (const member of group.members) {
      if (member !== key && get(member)?.intent !== 'group-restart') continue;
      set(member, { intent: null });
      if (waiting(member)) steps.push({ kind: 'start', id: member });
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
  const children = books.children.map((c) => ({
    ...c,
    intent: c.id === failedId ? null : ('stop' as const),
  }));
  const steps: Step[] = [{ kind: 'escalate', why }];
  for (const cid of childIds(books).reverse()) {
    steps.push({ kind: 'cancel', id: cid });
    steps.push(
      cid === failedId ? { kind: 'give-up', id: cid, why } : { kind: 'stop', id: cid, reason: 'escalated' },
    );
  }
  return { books: { ...books, escalated: true, children, groups: {} }, steps };
}
