// The supervisor's books: everything its decisions read, as plain data. Nothing here is a function or a handle,
// so a snapshot of the supervisor persists as JSON and a decision replays from it.
import {
  type BackoffConfig,
  clearHistory,
  emptyHistory,
  type LimitConfig,
  type RestartHistory,
  type RestartPolicyName,
  type RestartStrategyName,
} from './restart-policy.js';

/** What the supervisor intends for a child whose exit it is waiting for; `null` = an exit would be a surprise. */
export type ChildIntent = 'stop' | 'group-restart' | 'manual-restart' | null;

/**
 * Where a child is, as far as its reports (and `CHILD.EXITED`) have told the supervisor. `running` means a
 * process exists or is being made, so a `CHILD.EXITED` is still to come; `exited` means the child waits for the
 * supervisor's answer to the exit it reported.
 */
export type ChildPhase = 'stopped' | 'running' | 'exited' | 'backoff' | 'failed' | 'untrusted';

export interface ChildBook {
  id: string;
  policy: RestartPolicyName;
  backoff: BackoffConfig;
  limit: LimitConfig;
  history: RestartHistory;
  phase: ChildPhase;
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
  limit: LimitConfig;
  global: RestartHistory;
  /**
   * Every child's book, in the fleet's order. A list rather than a record by id: every event copies the books,
   * and a list of a thousand books copies as one block where a record of a thousand keys is rebuilt key by key
   * (about 250 times slower, and most of what starting a thousand servers allocated).
   */
  children: readonly ChildBook[];
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
  | { kind: 'restart-later'; id: string }
  | { kind: 'stop'; id: string; reason: string }
  | { kind: 'schedule'; id: string; delayMs: number }
  | { kind: 'cancel'; id: string }
  | { kind: 'escalate'; why: string };

/** A fresh book for a child that has not been started. */
export function newChildBook(
  id: string,
  policy: RestartPolicyName,
  backoff: BackoffConfig,
  limit: LimitConfig,
): ChildBook {
  return {
    id,
    policy,
    backoff,
    limit,
    history: emptyHistory(),
    phase: 'stopped',
    intent: null,
    restarts: 0,
    failedStarts: 0,
  };
}

/** A child's book, if the books know it. */
export function childOf(books: Books, id: string): ChildBook | undefined {
  return books.children.find((c) => c.id === id);
}

/** The children's ids in the fleet's order. */
export function childIds(books: Books): string[] {
  return books.children.map((c) => c.id);
}

/** The books with one child's book patched (unknown ids leave the books as they are). */
export function withChild(books: Books, id: string, patch: Partial<Omit<ChildBook, 'id'>>): Books {
  const at = books.children.findIndex((c) => c.id === id);
  if (at < 0) return books;
  const children = books.children.slice();
  children[at] = { ...(children[at] as ChildBook), ...patch };
  return { ...books, children };
}

/**
 * A copy of the children to read and patch by id while one decision touches many of them (one index for the
 * decision, not a search per child); `children` is the list to put in the new books.
 */
export function editChildren(books: Books): {
  get(id: string): ChildBook | undefined;
  set(id: string, patch: Partial<Omit<ChildBook, 'id'>>): void;
  children: ChildBook[];
} {
  const children = books.children.slice();
  const index = new Map(children.map((c, i) => [c.id, i]));
  return {
    children,
    get: (id) => {
      const at = index.get(id);
      return at === undefined ? undefined : children[at];
    },
    set: (id, patch) => {
      const at = index.get(id);
      if (at !== undefined) children[at] = { ...(children[at] as ChildBook), ...patch };
    },
  };
}

/** A child reported the phase it entered. */
export function notePhase(books: Books, id: string, phase: ChildPhase): Books {
  // Every server reports `stopped` as it is made: the books already say so, and a copy of them costs the fleet.
  if (childOf(books, id)?.phase === phase) return books;
  return withChild(books, id, { phase });
}

/**
 * A child stayed ready for its `resetAfter`: its backoff starts over. A report that comes after the child left
 * `running` is stale (the timer is cancelled at the exit) and changes nothing.
 */
export function markStable(books: Books, id: string): Books {
  if (childOf(books, id)?.phase !== 'running') return books;
  return withChild(books, id, { history: clearHistory() });
}

/** Whether a child still has a process whose exit the supervisor has not heard of. */
export function isRunning(books: Books, id: string): boolean {
  return childOf(books, id)?.phase === 'running';
}

/** Whether a child waits for the supervisor to start it again (a stop since its exit wins). */
export function isWaiting(books: Books, id: string): boolean {
  const phase = childOf(books, id)?.phase;
  return phase === 'backoff' || phase === 'exited';
}
