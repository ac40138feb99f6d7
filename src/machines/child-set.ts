// Adding and removing children of a running supervisor (a reload): pure changes to the books.
import { type Books, type ChildBook, childIds, childOf, newChildBook } from './books.js';
import type { BackoffConfig, LimitConfig, RestartPolicyName } from './restart-policy.js';
import { leaveGroups } from './supervisor-decisions.js';

/** What the books keep of a child's config. */
export interface ChildRestart {
  id: string;
  restart: { policy: RestartPolicyName; backoff: BackoffConfig; limit: LimitConfig };
}

/**
 * The books with a new child, stopped, placed where `order` (the new config's order) puts it among the children
 * the books know; a child `order` leaves out keeps its place after them. Unchanged when the id is taken.
 */
export function addChild(books: Books, child: ChildRestart, order: readonly string[]): Books | undefined {
  if (childOf(books, child.id)) return undefined;
  const { policy, backoff, limit } = child.restart;
  const all = [...books.children, newChildBook(child.id, policy, backoff, limit)];
  const byId = new Map(all.map((c) => [c.id, c]));
  const children = placed(order, childIds(books), child.id).map((id) => byId.get(id) as ChildBook);
  return { ...books, children };
}

/**
 * The books without a child: its book, its place in the order and every pending group it was part of. Whatever
 * phase it is in, its actor is stopped with it, and a stopped actor takes its process group along.
 */
export function removeChild(books: Books, id: string): Books | undefined {
  if (!childOf(books, id)) return undefined;
  const left = leaveGroups(books, id);
  return { ...left, children: books.children.filter((c) => c.id !== id) };
}

/** The order of the known ids and the new one: as `wanted` has them, then the rest as `before` had them. */
function placed(wanted: readonly string[], before: readonly string[], added: string): string[] {
  const known = new Set([...before, added]);
  const out = wanted.filter((id) => known.has(id));
  const taken = new Set(out);
  for (const id of [...before, added]) {
    if (taken.has(id)) continue;
    taken.add(id);
    out.push(id);
  }
  return out;
}
