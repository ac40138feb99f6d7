import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { RootsListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ClientHandlers } from '../../supervisor/runtime/client-side.js';
import type { Fleet } from '../fleet.js';
import { frontClientHandlers } from '../front-client.js';

type Kind = keyof ClientHandlers;
const KINDS: readonly Kind[] = ['sampling', 'elicitation', 'roots'];

/**
 * Who answers the servers' sampling, elicitation and roots requests when many clients share the fleet over
 * HTTP: for each kind, the session that initialized most recently among those that declared it. When that session
 * ends, the one before it takes over; with none left, the servers' requests of that kind are refused.
 */
export class FrontClients {
  private readonly sessions: Array<{ server: Server; handlers: ClientHandlers }> = [];
  private rootsFrom: Server | undefined;

  constructor(private readonly sup: Fleet) {}

  /** A session whose client just initialized (its capabilities are known). */
  add(server: Server): void {
    const handlers = frontClientHandlers(server);
    this.sessions.push({ server, handlers });
    if (handlers.roots) {
      // Only the session whose roots the servers see may tell them its roots changed.
      server.setNotificationHandler(RootsListChangedNotificationSchema, async () => {
        if (this.rootsFrom === server) this.sup.rootsChanged();
      });
    }
    this.apply();
  }

  /** A session that ended; idempotent. */
  remove(server: Server): void {
    const i = this.sessions.findIndex((s) => s.server === server);
    if (i < 0) return;
    this.sessions.splice(i, 1);
    this.apply();
  }

  private apply(): void {
    const merged: ClientHandlers = {};
    const from: Partial<Record<Kind, Server>> = {};
    for (const kind of KINDS) {
      const owner = this.sessions.findLast((s) => s.handlers[kind] !== undefined);
      if (!owner) continue;
      (merged as Record<Kind, unknown>)[kind] = owner.handlers[kind];
      from[kind] = owner.server;
    }
    this.sup.answerServerRequests(merged);
    const rootsMoved = from.roots !== this.rootsFrom;
    this.rootsFrom = from.roots;
    // Another client's roots (or none) now answer: the servers that asked before must ask again.
    if (rootsMoved) this.sup.rootsChanged();
  }
}
