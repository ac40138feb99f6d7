// Adding and removing children of a running supervisor (a reload): pure changes to the books.
import { type Books, newChildBook } from './books.js';
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
  if (books.children[child.id]) return undefined;
  const { policy, backoff, limit } = child.restart;
  const children = { ...books.children, [child.id]: newChildBook(policy, backoff, limit) };
  return { ...books, children, order: placed(order, Object.keys(children), books.order) };
}

/**
 * The books without a child: its book, its place in the order and every pending group it was part of. Whatever
 * phase it is in, its actor is stopped with it, and a stopped actor takes its process group along.
 */
export function removeChild(books: Books, id: string): Books | undefined {
  if (!books.children[id]) return undefined;
  const children = { ...books.children };
  delete children[id];
  const left = leaveGroups(books, id);
  return { ...left, children, order: books.order.filter((o) => o !== id) };
}

/** The order of the known ids: as `wanted` has them, then the rest as `before` had them. */
function placed(wanted: readonly string[], known: readonly string[], before: readonly string[]): string[] {
  const set = new Set(known);
  const out = wanted.filter((id) => set.has(id));
  const taken = new Set(out);
  for (const id of [...before, ...known]) {
    if (taken.has(id)) continue;
    taken.add(id);
    out.push(id);
  }
  return out;
}
