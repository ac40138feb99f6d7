import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Gateway } from './gateway.js';
import type { Caller } from './http-auth.js';

/** One client of `serve --http`: its transport, its own Gateway over the shared fleet, and whose it is. */
export interface HttpSession {
  id: string;
  transport: StreamableHTTPServerTransport;
  gateway: Gateway;
  /** The credential that opened it (undefined without auth); every later request must carry the same one. */
  callerId: string | undefined;
}

export interface HttpSessionsOptions {
  /** A Gateway for a new session, checking calls against `caller`'s scopes. */
  gateway: (caller: Caller | undefined) => Gateway;
  /** Answer each POST with one JSON body instead of an SSE stream. */
  jsonResponse: boolean;
  /** After a session's Gateway closed (DELETE, or the server stopping). */
  onEnd?: (gateway: Gateway) => void;
}

/** The live sessions of `serve --http`, by `Mcp-Session-Id`. */
export class HttpSessions {
  private readonly live = new Map<string, HttpSession>();
  private closed = false;

  constructor(private readonly opts: HttpSessionsOptions) {}

  get(id: string): HttpSession | undefined {
    return this.live.get(id);
  }

  get size(): number {
    return this.live.size;
  }

  /** Answers an `initialize` POST (its body already parsed) with a new session. */
  async open(
    caller: Caller | undefined,
    req: IncomingMessage,
    res: ServerResponse,
    body: unknown,
  ): Promise<void> {
    const gateway = this.opts.gateway(caller);
    let session: HttpSession | undefined;
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: this.opts.jsonResponse,
      onsessioninitialized: (id) => {
        session = { id, transport, gateway, callerId: caller?.id };
        this.live.set(id, session);
      },
    });
    // DELETE closes the transport; the SDK's Server then reports its own close.
    gateway.server.onclose = () => void this.end(gateway, session);
    await gateway.connect(transport);
    await transport.handleRequest(req, res, body);
    // Refused before a session was made (a bad Accept header, say), or made after close() swept: nothing to keep.
    if (session === undefined || this.closed) await this.end(gateway, session);
  }

  /** Ends every session (their SSE streams close) and refuses new ones; idempotent. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.live.values()].map((s) => this.end(s.gateway, s)));
  }

  get isClosed(): boolean {
    return this.closed;
  }

  private async end(gateway: Gateway, session: HttpSession | undefined): Promise<void> {
    if (session && this.live.get(session.id) === session) this.live.delete(session.id);
    await gateway.close();
    this.opts.onEnd?.(gateway);
  }
}
