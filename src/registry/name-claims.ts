/** What kind of name two servers both offered. */
export type NameKind = 'tool' | 'prompt' | 'resource';

/** A name one server offers that another server already holds: left out, never shadowing the holder. */
export interface HeldName {
  kind: NameKind;
  /** The server whose entry is left out. */
  server: string;
  /** The exposed name (or URI) both offer. */
  name: string;
  /** The server that keeps the name. */
  heldFor: string;
}

/**
 * Settles which server each exposed name goes to when several offer it: the first in `order` (config order)
 * keeps it, whichever became ready first, so the answer depends on the config and on who offers what now, never
 * on timing. The others' entries are left out and returned as held; when the holder stops offering the name (its
 * listing drops it, or it is no longer ready), the next in order gets it on the next settling. A server's own
 * duplicate is left out silently (its listing was already checked).
 */
export function settleNames<T extends { name: string }>(
  perServer: ReadonlyMap<string, readonly T[]>,
  order: readonly string[],
  kind: NameKind,
): { kept: Map<string, T[]>; held: HeldName[] } {
  const holders = new Map<string, string>();
  const kept = new Map<string, T[]>();
  const held: HeldName[] = [];
  for (const server of [...new Set([...order, ...perServer.keys()])]) {
    const own: T[] = [];
    for (const entry of perServer.get(server) ?? []) {
      const holder = holders.get(entry.name);
      if (holder === undefined) {
        holders.set(entry.name, server);
        own.push(entry);
      } else if (holder !== server && !held.some((h) => h.server === server && h.name === entry.name)) {
        held.push({ kind, server, name: entry.name, heldFor: holder });
      }
    }
    if (perServer.has(server)) kept.set(server, own);
  }
  return { kept, held };
}
