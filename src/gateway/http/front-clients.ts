import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { RootsListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type {
  ClientHandlers,
  Root,
  RootsRequest,
  ServerRequest,
} from '../../supervisor/runtime/client-side.js';
import type { Fleet } from '../fleet.js';
import { frontClientHandlers } from '../front-client.js';
import { type AskKind, answeringSession, type FrontSession, type Unrouted } from './answering-session.js';

const KINDS: readonly AskKind[] = ['sampling', 'elicitation', 'roots'];

/** What the server that asked is told when no client may answer; data beside the words. */
const UNROUTED_WORDS: Record<Unrouted, string> = {
  SEVERAL_CALLERS: 'calls of more than one credential are in flight to this server, so none of them is asked',
  CALLER_CANNOT_ANSWER: 'the client whose call this serves did not declare it can answer this',
  NO_CALLER: 'it was asked outside any call, and the clients that could answer hold different credentials',
};

/**
 * Who answers the servers' sampling, elicitation and roots requests when many clients share the fleet over
 * HTTP: the client of the call the server is serving, on that call's stream — never a client of another
 * credential (docs/security.md, "Server requests"). Each session's capabilities are known once it initialized.
 */
export class FrontClients {
  private readonly sessions: Array<FrontSession & { server: Server }> = [];
  private rootsFrom: Server | undefined;

  constructor(private readonly sup: Fleet) {
    sup.answerServerRequests({
      sampling: (r) => this.ask('sampling', r),
      elicitation: (r) => this.ask('elicitation', r),
      roots: (r) => this.ask('roots', r) as Promise<readonly Root[]>,
    });
  }

  /** A session whose client just initialized (its capabilities are known), opened with `principal`'s credential. */
  add(server: Server, key: string, principal: string | null): void {
    const declared = new Set(KINDS.filter((k) => frontClientHandlers(server)[k] !== undefined));
    this.sessions.push({ server, key, principal, declared });
    if (declared.has('roots')) {
      // Only the session whose roots the servers see may tell them its roots changed.
      server.setNotificationHandler(RootsListChangedNotificationSchema, async () => {
        if (this.rootsFrom === server) this.sup.rootsChanged();
      });
    }
    this.rootsMoved();
  }

  /** A session that ended; idempotent. */
  remove(server: Server): void {
    const i = this.sessions.findIndex((s) => s.server === server);
    if (i < 0) return;
    this.sessions.splice(i, 1);
    this.rootsMoved();
  }

  private ask(kind: AskKind, request: RootsRequest | ServerRequest): Promise<unknown> {
    const pick = answeringSession(this.sessions, kind, request.callers);
    if (!pick.ok) {
      const err = new Error(
        `no client answers ${kind} for server '${request.server}': ${UNROUTED_WORDS[pick.why]}`,
      );
      return Promise.reject(Object.assign(err, { code: -32601, data: { code: pick.why } }));
    }
    const { server } = this.sessions.find((s) => s === pick.session) as { server: Server };
    const handlers = frontClientHandlers(server, pick.relatedRequestId);
    if (kind === 'roots')
      return Promise.resolve((handlers.roots as NonNullable<ClientHandlers['roots']>)(request));
    return (handlers[kind] as NonNullable<ClientHandlers['sampling']>)(request as ServerRequest);
  }

  // A server that asked for roots before may now get another client's (or none): it must ask again.
  private rootsMoved(): void {
    const from = this.sessions.findLast((s) => s.declared.has('roots'))?.server;
    if (from === this.rootsFrom) return;
    this.rootsFrom = from;
    this.sup.rootsChanged();
  }
}
