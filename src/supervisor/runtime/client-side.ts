import type { ServerConfig } from '../../config/types.js';
import type { Forward, ForwardAnswer } from '../../protocol/server-requests.js';

/** A request a server sent to the client side, as a host handler gets it. */
export interface ServerRequest {
  /** The id of the server that asked. */
  server: string;
  method: string;
  /** As the server sent them (a `CreateMessageRequest`'s or `ElicitRequest`'s params). */
  params: unknown;
  /** Aborts when the server cancels the request, goes away, or waited too long. */
  signal: AbortSignal;
  /**
   * Who the requests in flight to that server are made for (`CallOptions.caller`), when it asked: it asks on
   * behalf of one of them. Empty when no call that named a caller was in flight.
   */
  callers: readonly string[];
}

/** Resolves the MCP result to send back; a rejection is sent as an error (its `code`, if it has an integer one). */
export type ClientHandler = (request: ServerRequest) => Promise<unknown>;

/** One root as MCP's `roots/list` names it. */
export interface Root {
  uri: string;
  name?: string | undefined;
}

/** A server's `roots/list`: the server that asked, and who its requests in flight are made for. */
export type RootsRequest = Pick<ServerRequest, 'server' | 'callers'>;

/** Who answers what servers ask of the client, for the servers allowed to ask. */
export interface ClientHandlers {
  /** `sampling/createMessage`, for servers with `allow: [sampling]`. */
  sampling?: ClientHandler | undefined;
  /** `elicitation/create`, for servers with `allow: [elicitation]`. */
  elicitation?: ClientHandler | undefined;
  /** `roots/list`, for servers with `roots: client`; told who asked and for whom, as the others are. */
  roots?: ((request: RootsRequest) => readonly Root[] | Promise<readonly Root[]>) | undefined;
}

const METHODS = {
  'sampling/createMessage': 'sampling',
  'elicitation/create': 'elicitation',
} as const;

/**
 * The client side of every server's connection: what to declare in its handshake and how to answer its requests.
 * A capability is declared to a server only when its config allows it AND a handler is there to answer; a server
 * that asks anyway is refused, as are all servers when nobody answers.
 */
export class ClientSide {
  private handlers: ClientHandlers;
  /**
   * Set by the fleet: holds a question a server asks for a task whose caller polls for it (the 2026 tasks
   * extension), or says undefined (not such a task: the handlers answer, as for any request).
   */
  taskQuestion:
    | ((
        server: string,
        method: string,
        params: unknown,
        signal: AbortSignal,
      ) => Promise<ForwardAnswer> | undefined)
    | undefined;

  constructor(
    handlers: ClientHandlers = {},
    /** Declares what allowed servers may ask though no handler answers: a task's questions are polled for. */
    private readonly declareTaskQuestions = false,
  ) {
    this.handlers = { ...handlers };
  }

  /** Replaces the handlers; servers that start (or restart) from now on are told what these can answer. */
  set(handlers: ClientHandlers): void {
    this.handlers = { ...handlers };
  }

  /** The client capabilities declared to `server` besides fixed roots. */
  capabilities(server: ServerConfig): Record<string, unknown> {
    const caps: Record<string, unknown> = {};
    const allow = server.allow ?? [];
    const polled = this.declareTaskQuestions;
    if (allow.includes('sampling') && (this.handlers.sampling || polled)) caps.sampling = {};
    if (allow.includes('elicitation') && (this.handlers.elicitation || polled)) caps.elicitation = {};
    if (server.roots === 'client' && (this.handlers.roots || polled)) caps.roots = { listChanged: true };
    return caps;
  }

  /** Answers `server`'s requests with the handlers it is allowed; undefined means refused. */
  forwarder(server: ServerConfig): Forward {
    return (method, params, signal, inFlight) => {
      const callers = [...inFlight];
      if (method === 'roots/list') {
        if (server.roots !== 'client') return undefined;
        const held = this.taskQuestion?.(server.id, method, params, signal);
        if (held) return held;
        const roots = this.handlers.roots;
        return roots
          ? answer(async () => ({ roots: [...(await roots({ server: server.id, callers }))] }))
          : undefined;
      }
      const kind = METHODS[method as keyof typeof METHODS];
      if (!kind || !(server.allow ?? []).includes(kind)) return undefined;
      const held = this.taskQuestion?.(server.id, method, params, signal);
      if (held) return held;
      const handler = this.handlers[kind];
      return handler
        ? answer(() => handler({ server: server.id, method, params, signal, callers }))
        : undefined;
    };
  }
}

async function answer(run: () => Promise<unknown>): Promise<ForwardAnswer> {
  try {
    return { result: await run() };
  } catch (err) {
    const e = err as { code?: unknown; message?: unknown; data?: unknown } | null;
    const code = typeof e?.code === 'number' && Number.isInteger(e.code) ? e.code : -32603;
    const message = typeof e?.message === 'string' ? e.message : String(err);
    return { error: { code, message, ...(e?.data !== undefined ? { data: e.data } : {}) } };
  }
}

/**
 * Tells every connected 2025 server whose roots are the client's that they changed
 * (`notifications/roots/list_changed`). MCP 2026-07-28 removed that notification: a 2026 server asks for roots in
 * an input round of the request that needs them, so it always gets the current ones.
 */
export function notifyRootsChanged(
  servers: Iterable<ServerConfig>,
  connection: (
    id: string,
  ) => { notify(method: string): boolean; serverInit: unknown; era?: string | undefined } | undefined,
): void {
  for (const server of servers) {
    if (server.roots !== 'client') continue;
    const conn = connection(server.id);
    // Before the handshake is done nothing but initialize may go out; the server lists roots after it anyway.
    if (conn?.serverInit && conn.era !== 'modern') conn.notify('notifications/roots/list_changed');
  }
}
