import type { IncomingMessage, ServerResponse } from 'node:http';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { envelopeOf, MODERN_VERSIONS } from '../era.js';
import { authenticate, type BearerVerifier, type Caller } from './auth.js';
import { checkHeaders, type HostGuard } from './guard.js';
import type { HealthReport, ReadyReport } from './healthz.js';
import type { HttpSessions } from './sessions.js';
import type { StatelessRequests } from './stateless.js';

/** The endpoint's path: `http://HOST:PORT/mcp`. */
export const MCP_PATH = '/mcp';
const HEALTH_PATH = '/healthz';
const READY_PATH = '/readyz';
/**
 * What a POST without a session may make us buffer before it is routed: an `initialize` is small, but a 2026
 * request (never in a session) carries a whole call's arguments. 4 MiB, as the SDK's own HTTP entry.
 */
const MAX_INIT_BODY = 4 * 1024 * 1024;

export interface FrontOptions {
  guard: HostGuard;
  /** Absent: no auth (only a loopback listener runs without it). */
  verifier?: BearerVerifier | undefined;
  sessions: HttpSessions;
  /** 2026 requests: stateless, one Gateway per POST. */
  modern: StatelessRequests;
  health: () => { httpStatus: number; body: HealthReport };
  ready: () => { httpStatus: number; body: ReadyReport };
  /** Counts an `/mcp` request as in flight; false once a drain refuses new ones. */
  admit: (res: ServerResponse) => boolean;
  onWarn: (message: string) => void;
}

/**
 * The request listener of `serve --http`. In order: `Host` and `Origin` (403), the path (404) and method (405),
 * a drain past its delay (503), the bearer token for `/mcp` (401), then the session: an `initialize` POST without `Mcp-Session-Id` opens one,
 * every other request goes to the session it names, if that session belongs to the same token (404 otherwise);
 * a POST without a session whose body carries the 2026 `_meta` envelope is answered statelessly. The MCP side of each request is the SDK's transport.
 */
export function frontHandler(opts: FrontOptions): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    route(req, res, opts).catch((err: unknown) => {
      opts.onWarn(`http ${req.method} ${req.url}: ${err instanceof Error ? err.message : String(err)}`);
      if (!res.headersSent) rpcError(res, 500, -32603, 'Internal error');
      else res.destroy();
    });
  };
}

async function route(req: IncomingMessage, res: ServerResponse, opts: FrontOptions): Promise<void> {
  const verdict = checkHeaders(req.headers, opts.guard);
  if (!verdict.ok) return rpcError(res, 403, -32000, `Forbidden: ${verdict.message}`);
  const path = (req.url ?? '/').split('?')[0];
  if (path === HEALTH_PATH || path === READY_PATH) {
    if (req.method !== 'GET' && req.method !== 'HEAD') return notAllowed(res, 'GET, HEAD');
    const { httpStatus, body } = path === HEALTH_PATH ? opts.health() : opts.ready();
    return send(res, httpStatus, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' }, body);
  }
  if (path !== MCP_PATH)
    return send(res, 404, { 'Content-Type': 'application/json' }, { error: 'not found' });
  if (req.method !== 'GET' && req.method !== 'POST' && req.method !== 'DELETE')
    return notAllowed(res, 'GET, POST, DELETE');
  // Draining: a 503 says nothing was done, so a proxy may send the request to another instance, and
  // `Connection: close` keeps it from sending the next one down this connection.
  if (!opts.admit(res)) {
    res.setHeader('Connection', 'close');
    return rpcError(res, 503, -32000, 'Server is draining');
  }

  let caller: Caller | undefined;
  if (opts.verifier) {
    const auth = await authenticate(req.headers.authorization, opts.verifier);
    if (!auth.ok) {
      res.setHeader('WWW-Authenticate', auth.wwwAuthenticate);
      return rpcError(res, 401, -32000, auth.code === 'NO_TOKEN' ? 'Unauthorized' : 'Invalid token');
    }
    caller = auth.caller;
  }

  const sessionId = req.headers['mcp-session-id'];
  if (typeof sessionId === 'string') {
    const session = opts.sessions.get(sessionId);
    // Another token's session is answered as if it did not exist: its id says nothing to this caller.
    if (session && session.callerId === caller?.id) return opts.sessions.handle(session, req, res);
    // One this replica does not hold may be sealed by another with the same key: it is taken up here.
    if (!session && (await opts.sessions.takeUp(caller, sessionId, req, res))) return;
    return rpcError(res, 404, -32001, 'Session not found');
  }
  if (req.method !== 'POST')
    return rpcError(res, 400, -32000, 'Bad Request: Mcp-Session-Id header is required');
  const body = await readJson(req);
  if (body === TOO_LARGE) return rpcError(res, 413, -32000, 'Request body too large');
  if (body === UNPARSABLE) return rpcError(res, 400, -32700, 'Parse error: Invalid JSON');
  if (opts.sessions.isClosed) return rpcError(res, 503, -32000, 'Server is stopping');
  // A 2026 request says so in its `_meta`, or at least in its version header (then a missing `_meta` is its error).
  const envelope = envelopeOf(body);
  const version = req.headers['mcp-protocol-version'];
  if (envelope || (typeof version === 'string' && MODERN_VERSIONS.includes(version)))
    return opts.modern.handle(caller, req, res, body, envelope);
  if (isInitializeRequest(body)) return opts.sessions.open(caller, req, res, body);
  return rpcError(res, 400, -32000, 'Bad Request: Mcp-Session-Id header is required');
}

const TOO_LARGE = Symbol('too large');
const UNPARSABLE = Symbol('unparsable');

function readJson(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    // Past the bound the rest is read and dropped, so the 413 can still be sent on the same connection.
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= MAX_INIT_BODY) chunks.push(c);
    });
    req.on('error', reject);
    req.on('end', () => {
      if (size > MAX_INIT_BODY) return resolve(TOO_LARGE);
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch {
        resolve(UNPARSABLE);
      }
    });
  });
}

function notAllowed(res: ServerResponse, allow: string): void {
  res.setHeader('Allow', allow);
  rpcError(res, 405, -32000, 'Method not allowed');
}

function rpcError(res: ServerResponse, status: number, code: number, message: string): void {
  send(
    res,
    status,
    { 'Content-Type': 'application/json' },
    { jsonrpc: '2.0', error: { code, message }, id: null },
  );
}

function send(res: ServerResponse, status: number, headers: Record<string, string>, body: unknown): void {
  res.writeHead(status, headers).end(res.req?.method === 'HEAD' ? undefined : JSON.stringify(body));
}
